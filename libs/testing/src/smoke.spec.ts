import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';

@Injectable()
class Greeter { greet() { return 'hi'; } }

describe('jest harness', () => {
  it('loads NestJS ESM modules through SWC', async () => {
    const mod = await Test.createTestingModule({ providers: [Greeter] }).compile();
    expect(mod.get(Greeter).greet()).toBe('hi');
  });
});
