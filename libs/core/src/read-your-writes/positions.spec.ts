import {
  type Positions,
  decodePositions,
  decodeWritten,
  encodePositions,
  encodeWritten,
  LATEST,
  mergePositions,
  positionsContext,
  recordWrite,
  RequestPositions,
} from './positions.js';

describe('positions', () => {
  it('keep the larger position of each producer when merged, changing neither side', () => {
    const a = { contacts: 12, sending: 40 };
    const b = { contacts: 9, segments: 3 };
    expect(mergePositions(a, b)).toEqual({ contacts: 12, sending: 40, segments: 3 });
    expect(a).toEqual({ contacts: 12, sending: 40 });
    expect(b).toEqual({ contacts: 9, segments: 3 });
  });

  it('travel in a header as producer=id pairs, or "latest"', () => {
    expect(encodePositions({ contacts: 12, gateway: 7 })).toBe('contacts=12,gateway=7');
    expect(encodePositions({})).toBe('');
    expect(encodePositions(LATEST)).toBe('latest');
    expect(decodePositions('contacts=12,gateway=7')).toEqual({ contacts: 12, gateway: 7 });
    expect(decodePositions(' latest ')).toBe(LATEST);
    expect(decodePositions(undefined)).toEqual({});
  });

  it('drop whatever in the header is not a service name with a positive integer', () => {
    expect(
      decodePositions(
        'contacts=12,=5,Bad Name=3,sending=-1,segments=1.5,domains=abc,workflows=9007199254740993,gateway=4',
      ),
    ).toEqual({ contacts: 12, gateway: 4 });
    expect(decodePositions('contacts=3,contacts=9,contacts=5')).toEqual({ contacts: 9 });
  });

  it('written per project round-trip as JSON, and junk yields nothing', () => {
    const written = new Map<string, Positions>([
      ['prj_a', { contacts: 3 }],
      ['prj_b', { sending: 8, contacts: 1 }],
    ]);
    expect(decodeWritten(encodeWritten(written))).toEqual(written);
    expect(decodeWritten('not json')).toEqual(new Map());
    expect(decodeWritten('[1,2]')).toEqual(new Map());
    expect(decodeWritten('{"prj_a":{"contacts":"x"},"prj_b":null}')).toEqual(new Map());
    expect(decodeWritten(undefined)).toEqual(new Map());
  });
});

describe('RequestPositions', () => {
  it('keeps the last position each producer wrote for each project, never a smaller one', () => {
    const request = new RequestPositions();
    request.wrote(['prj_a', 'prj_b'], 'contacts', 10);
    request.wrote(['prj_a'], 'contacts', 7);
    request.wrote(['prj_a'], 'sending', 2);
    expect(request.written).toEqual(
      new Map([
        ['prj_a', { contacts: 10, sending: 2 }],
        ['prj_b', { contacts: 10 }],
      ]),
    );
  });

  it('absorbs what an internal call wrote', () => {
    const request = new RequestPositions();
    request.wrote(['prj_a'], 'sending', 5);
    request.absorb(new Map([['prj_a', { contacts: 30, sending: 1 }]]));
    expect(request.written.get('prj_a')).toEqual({ sending: 5, contacts: 30 });
  });

  it('asks a callee to observe its own positions and its writes so far, for its own project only', () => {
    const request = new RequestPositions();
    request.projectId = 'prj_a';
    request.observed = { contacts: 4, domains: 2 };
    request.wrote(['prj_a'], 'contacts', 9);
    request.wrote(['prj_b'], 'sending', 3);
    expect(request.forCallee('prj_a')).toEqual({ contacts: 9, domains: 2 });
    expect(request.forCallee('prj_b')).toEqual({ sending: 3 });
    request.observed = LATEST;
    expect(request.forCallee('prj_a')).toBe(LATEST);
  });

  it('records writes only inside a request context', () => {
    recordWrite(['prj_a'], 'contacts', 1); // no context: nothing to record, no error
    const request = new RequestPositions();
    positionsContext.run(request, () => recordWrite(['prj_a'], 'contacts', 5));
    expect(request.written.get('prj_a')).toEqual({ contacts: 5 });
  });
});
