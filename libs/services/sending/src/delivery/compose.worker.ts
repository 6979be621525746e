import { messageComposer, type ComposeReply, type ComposeTask } from './compose-message.js';

/**
 * A compose thread (Piscina): composes and DKIM-signs the messages of a hand-off in turn
 * (`createMessageComposer`), off the event loop of the process that delivers them, one reply each:
 * a message that cannot be composed fails alone. The bytes go back as a copy (a message is tens of
 * kilobytes).
 */
const composer = messageComposer();

export default async function compose(tasks: ComposeTask[]): Promise<ComposeReply[]> {
  const replies: ComposeReply[] = [];
  for (const task of tasks) {
    try {
      replies.push({ raw: await composer.compose(task) });
    } catch (err) {
      replies.push({ failed: err instanceof Error ? err.message : String(err) });
    }
  }
  return replies;
}
