import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createTemplateRenderPool,
  RENDERS_PER_HANDOFF,
  type RenderTask,
  type TemplateRenderPool,
} from './render-threads.js';
import { TemplateError, TemplateErrorCode } from './template-errors.js';

/** The render thread as the built service runs it (`npm test` builds dist/, or HERALD_DIST, first). */
const BUILT_WORKER = path.join(
  fileURLToPath(new URL('../../../', import.meta.url)),
  process.env.HERALD_DIST ?? 'dist',
  'libs/templating/src/render.worker.js',
);

/** A template that renders until the work or time limit stops it (a 10^5-step loop over data). */
const HOSTILE: RenderTask = {
  parts: [{ source: '{% for a in xs %}{% for b in xs %}{% increment n %}{% endfor %}{% endfor %}', escape: 'none' }],
  variables: { xs: Array.from({ length: 2000 }, (_, i) => i) },
};

async function failure(promise: Promise<unknown>): Promise<TemplateError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(TemplateError);
  return error as TemplateError;
}

describe('template render pool (render threads and the event loop)', () => {
  let threads: TemplateRenderPool;
  let inline: TemplateRenderPool;
  beforeAll(() => {
    expect(existsSync(BUILT_WORKER)).toBe(true);
    threads = createTemplateRenderPool(1, BUILT_WORKER);
    inline = createTemplateRenderPool(0);
  });
  afterAll(async () => {
    await threads.close();
    await inline.close();
  });

  it('a render thread answers what the event loop answers: each part escaped as asked, and the plain text of one', async () => {
    const task: RenderTask = {
      parts: [
        { source: 'Hi {{ name }}', escape: 'none' },
        { source: '<p>Hello {{ name }}</p><p>{{ plan | default: "free" }}</p>', escape: 'html' },
      ],
      variables: { name: 'Ada <3' },
      plainTextOf: 1,
    };
    expect([threads.offThread, inline.offThread]).toEqual([true, false]);
    const [a, b] = await Promise.all([threads.render(task), inline.render(task)]);
    expect(a).toEqual(b);
    expect(a.outputs).toEqual(['Hi Ada <3', '<p>Hello Ada &lt;3</p><p>free</p>']);
    expect(a.plainText).toContain('Hello Ada <3');
  });

  it('a Markdown part is converted on the render thread as on the event loop, its plain text without Markdown', async () => {
    const task: RenderTask = {
      parts: [{ source: '# Hi {{ name }}\n\n**Welcome** to [Herald]({{ url }}).', escape: 'html', format: 'markdown' }],
      variables: { name: 'Ada <3', url: 'https://herald.test/?a=1&b=2' },
      plainTextOf: 0,
    };
    const [a, b] = await Promise.all([threads.render(task), inline.render(task)]);
    expect(a).toEqual(b);
    expect(a.outputs).toEqual([
      '<h1>Hi Ada &lt;3</h1>\n<p><strong>Welcome</strong> to <a href="https://herald.test/?a=1&amp;b=2">Herald</a>.</p>\n',
    ]);
    expect(a.plainText).toBe('HI ADA <3\n\nWelcome to Herald [https://herald.test/?a=1&b=2].');
  });

  it("a template error in a render thread is the renderer's TemplateError, with its code and problems", async () => {
    const invalid = await failure(
      threads.render({ parts: [{ source: '{{ x | nosuchfilter }}', escape: 'html' }], variables: {} }),
    );
    expect(invalid.code).toBe(TemplateErrorCode.Invalid);
    expect(invalid.problems[0]).toMatchObject({ line: 1 });
    const limited = await failure(threads.render(HOSTILE));
    expect(limited.code).toBe(TemplateErrorCode.LimitExceeded);
  });

  it('a hostile render in a render thread leaves the event loop free: timers fire while it runs', async () => {
    let ticks = 0;
    let rendering = true;
    const tick = (): void => {
      ticks++;
      if (rendering) setImmediate(tick);
    };
    const render = threads.render(HOSTILE).finally(() => (rendering = false));
    setImmediate(tick);
    await failure(render);
    expect(ticks).toBeGreaterThan(1);
  });

  it('the same hostile render on the event loop holds it: no timer fires until it ends (what the threads prevent)', async () => {
    let ticks = 0;
    setImmediate(() => ticks++);
    const render = inline.render(HOSTILE);
    expect(ticks).toBe(0);
    await failure(render);
  });

  it('renders asked together are handed off together, each answered on its own: a failing one fails alone', async () => {
    const greeting = (i: number): RenderTask => ({
      parts: [{ source: 'Hi {{ name }} #{{ n }}', escape: 'none' }],
      variables: { name: 'Ada', n: i },
    });
    // more than one hand-off's worth, with a template error and a render over its limit among them
    const tasks = Array.from({ length: 3 * RENDERS_PER_HANDOFF + 1 }, (_, i) =>
      i === 5
        ? { parts: [{ source: '{{ x | nosuchfilter }}', escape: 'html' as const }], variables: {} }
        : i === 20
          ? HOSTILE
          : greeting(i),
    );
    const settled = await Promise.allSettled(tasks.map((t) => threads.render(t)));
    settled.forEach((s, i) => {
      if (i === 5 || i === 20) {
        expect(s.status).toBe('rejected');
        const code = ((s as PromiseRejectedResult).reason as TemplateError).code;
        expect(code).toBe(i === 5 ? TemplateErrorCode.Invalid : TemplateErrorCode.LimitExceeded);
      } else expect(s).toEqual({ status: 'fulfilled', value: { outputs: [`Hi Ada #${i}`] } });
    });
  });

  it('the thread keeps serving after a limit was hit', async () => {
    await failure(threads.render(HOSTILE));
    expect(
      (await threads.render({ parts: [{ source: '{{ 1 | plus: 1 }}', escape: 'none' }], variables: {} })).outputs,
    ).toEqual(['2']);
  });
});
