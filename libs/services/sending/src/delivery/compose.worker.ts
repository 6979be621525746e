import { messageComposer, type ComposeTask } from './compose-message.js';

/**
 * A compose thread (Piscina): composes and DKIM-signs one message per task, off the event loop of
 * the process that delivers it. The bytes go back as a copy (a message is tens of kilobytes).
 */
const composer = messageComposer();

export default function compose(task: ComposeTask): Promise<Buffer> {
  return composer.compose(task);
}
