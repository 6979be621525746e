import { LATEST, positionsContext, RequestPositions, type Observed } from '@herald/core';
import { callFor, chunksOf, jsonValues, requestIdOf, type BatchedRequest } from './send-batch.js';

const request = (observed: Observed, requestId?: string): BatchedRequest => {
  const positions = new RequestPositions();
  positions.projectId = 'p';
  positions.observed = observed;
  return { projectId: 'p', requestId, positions };
};

describe('send batches: what requests sharing a call share', () => {
  it('makes a shared call observe the larger of each position its requests must observe', async () => {
    const seen = await callFor('p', [request({ contacts: 5, segments: 2 }), request({ contacts: 9 })], async () =>
      positionsContext.getStore()!.forCallee('p'),
    );
    expect(seen).toEqual({ contacts: 9, segments: 2 });
  });

  it('makes a shared call observe the latest when one of its requests must', async () => {
    const seen = await callFor('p', [request({ contacts: 5 }), request(LATEST)], async () =>
      positionsContext.getStore()!.forCallee('p'),
    );
    expect(seen).toBe(LATEST);
  });

  it('records what a shared call wrote in every one of its requests, also when it fails', async () => {
    const requests = [request({}), request({ contacts: 3 })];
    await callFor('p', requests, async () => positionsContext.getStore()!.wrote(['p'], 'contacts', 12));
    await expect(
      callFor('p', requests, async () => {
        positionsContext.getStore()!.wrote(['p'], 'segments', 4);
        throw new Error('failed after writing');
      }),
    ).rejects.toThrow('failed after writing');
    for (const r of requests) expect(r.positions!.written.get('p')).toEqual({ contacts: 12, segments: 4 });
  });

  it("gives a call its request's id when it is made for one request (or several of one), none when for several", () => {
    expect(requestIdOf([request({}, 'req-1')])).toBe('req-1');
    expect(requestIdOf([request({}, 'req-1'), request({}, 'req-1')])).toBe('req-1');
    expect(requestIdOf([request({}, 'req-1'), request({}, 'req-2')])).toBeUndefined();
  });

  it('cuts items in order into chunks of at most `max`, an item larger than `max` alone', () => {
    expect(chunksOf([3, 2, 4, 9, 1, 1], (n) => n, 5)).toEqual([[3, 2], [4], [9], [1, 1]]);
    expect(chunksOf([], (n: number) => n, 5)).toEqual([]);
  });

  it('counts the JSON values of data as a body limit counts them: objects and arrays too', () => {
    expect(jsonValues(undefined)).toBe(0);
    expect(jsonValues({})).toBe(1);
    expect(jsonValues({ a: 1, b: [1, 2], c: { d: null } })).toBe(7);
  });
});
