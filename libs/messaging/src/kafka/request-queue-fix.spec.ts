import { createRequire } from 'node:module';
import { fixKafkaRequestQueue } from './request-queue-fix.js';

interface FakeQueue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  checkPendingRequests(): void;
}

const RequestQueue = createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js') as {
  prototype: { scheduleCheckPendingRequests(this: FakeQueue): void };
};

describe("kafkajs's request queue under Node 24", () => {
  beforeAll(() => fixKafkaRequestQueue());

  const queue = (pending: unknown[], throttledUntil: number, onCheck: () => void = () => undefined): FakeQueue => ({
    pending,
    throttledUntil,
    throttleCheckTimeoutId: null,
    checkPendingRequests: onCheck,
  });

  it('schedules no timer (no negative timeout, no 1 ms loop) when no request waits', () => {
    const idle = queue([], -1);
    RequestQueue.prototype.scheduleCheckPendingRequests.call(idle);
    expect(idle.throttleCheckTimeoutId).toBeNull();
  });

  it('checks a waiting request again once the broker throttle ends', async () => {
    const started = Date.now();
    const checked = await new Promise<number>((resolve) => {
      const throttled = queue([{}], started + 80, () => resolve(Date.now()));
      RequestQueue.prototype.scheduleCheckPendingRequests.call(throttled);
    });
    expect(checked - started).toBeGreaterThanOrEqual(70);
  });

  it('checks a waiting request again soon when there is no throttle', async () => {
    const started = Date.now();
    const checked = await new Promise<number>((resolve) => {
      const waiting = queue([{}], -1, () => resolve(Date.now()));
      RequestQueue.prototype.scheduleCheckPendingRequests.call(waiting);
    });
    expect(checked - started).toBeLessThan(1000);
  });
});
