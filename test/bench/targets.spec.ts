import { type BenchRun, type Judgement, judge } from '../../bench/targets.js';

const judged = (over: Partial<Judgement>): Judgement => ({
  bench: 'sending',
  target: 'delivered ≥ 70% of raw nodemailer',
  measured: '700/s',
  raw: 'raw nodemailer 1,000/s',
  ratio: 0.7,
  met: true,
  ...over,
});
const ran = (bench: string, over: Partial<BenchRun> = {}): BenchRun => ({ bench, exitCode: 0, seconds: 1, ...over });

describe('judging a run of benches (bench/targets.ts)', () => {
  it('a run whose targets are all met passes, one row per target', () => {
    const v = judge([ran('sending')], [judged({}), judged({ target: 'p99 < 100 ms', ratio: undefined, raw: '' })]);
    expect(v.failures).toEqual([]);
    expect(v.rows).toHaveLength(3);
    expect(v.rows[1]).toEqual([
      'sending',
      'delivered ≥ 70% of raw nodemailer',
      '700/s',
      'raw nodemailer 1,000/s',
      '70%',
      'met',
    ]);
  });

  it('a missed ratio target fails the run: the raw limit was measured in the same run, so the machine cancels out', () => {
    const v = judge([ran('sending')], [judged({ ratio: 0.55, met: false })]);
    expect(v.failures).toEqual(['sending: delivered ≥ 70% of raw nodemailer']);
    expect(v.rows[1]![5]).toBe('NOT met (fails the run)');
  });

  it('a missed absolute target is reported without failing the run: it measures the machine', () => {
    const v = judge([ran('contacts-search')], [judged({ bench: 'contacts-search', ratio: undefined, met: false })]);
    expect(v.failures).toEqual([]);
    expect(v.rows[1]![5]).toBe('NOT met (absolute: the machine)');
  });

  it('a missed invariant fails the run, ratio or not', () => {
    const v = judge(
      [ran('campaigns')],
      [judged({ bench: 'campaigns', ratio: undefined, invariant: true, met: false })],
    );
    expect(v.failures).toHaveLength(1);
  });

  it('a bench that crashed or judged nothing fails the run; one with figures only does not', () => {
    const v = judge(
      [ran('segments', { exitCode: 1 }), ran('workflows'), ran('cold-start', { figuresOnly: true })],
      [judged({ bench: 'segments' })],
    );
    expect(v.failures).toEqual(['segments exited with code 1', 'workflows judged no target']);
    expect(v.rows.map((r) => r[1])).toContain('(figures only: no target)');
  });

  it('a ratio of 2 or more reads as a multiple', () => {
    const v = judge([ran('sending')], [judged({ ratio: 5.4 })]);
    expect(v.rows[1]![4]).toBe('5.4×');
  });
});
