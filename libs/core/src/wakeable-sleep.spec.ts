import { WakeableSleep } from './wakeable-sleep.js';

describe('WakeableSleep', () => {
  const elapsed = async (p: Promise<void>) => {
    const t = performance.now();
    await p;
    return performance.now() - t;
  };

  it('sleeps its interval when nothing wakes it', async () => {
    expect(await elapsed(new WakeableSleep().sleep(30))).toBeGreaterThanOrEqual(25);
  });

  it('a wake cuts the sleep in progress short', async () => {
    const pause = new WakeableSleep();
    const sleeping = pause.sleep(3_600_000); // an hour: unless woken, the test's own timeout fails it
    pause.wake();
    await expect(sleeping).resolves.toBeUndefined();
  });

  it('a wake while nobody sleeps is kept for the next sleep (the work it announces came after the last round read)', async () => {
    const pause = new WakeableSleep();
    pause.wake();
    await expect(pause.sleep(3_600_000)).resolves.toBeUndefined(); // an hour: only the kept wake ends it
  });

  it('a kept wake is used once: the sleep after it waits again', async () => {
    const pause = new WakeableSleep();
    pause.wake();
    pause.wake();
    await pause.sleep(3_600_000);
    expect(await elapsed(pause.sleep(30))).toBeGreaterThanOrEqual(25);
  });
});
