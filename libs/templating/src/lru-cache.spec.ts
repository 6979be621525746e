import { LruCache } from './lru-cache.js';

describe('LruCache: bounded by entries and by total weight, evicting the least recently used', () => {
  it('evicts the least recently used entry past the entry limit', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3]);
    expect(cache.size).toBe(2);
  });

  it('evicts until the total weight fits', () => {
    const cache = new LruCache<string, number>(10, 100);
    cache.set('a', 1, 40);
    cache.set('b', 2, 40);
    cache.set('c', 3, 40);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.weight).toBe(80);
  });

  it('never stores an entry heavier than the whole budget', () => {
    const cache = new LruCache<string, number>(10, 100);
    cache.set('a', 1, 10);
    cache.set('huge', 2, 101);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
  });

  it('replacing a key updates its weight; 0 entries disables caching', () => {
    const cache = new LruCache<string, number>(10, 100);
    cache.set('a', 1, 60);
    cache.set('a', 2, 30);
    expect(cache.weight).toBe(30);
    const off = new LruCache<string, number>(0);
    off.set('a', 1);
    expect(off.size).toBe(0);
  });
});
