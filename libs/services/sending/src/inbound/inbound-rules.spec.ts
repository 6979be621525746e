import {
  messageIdsIn,
  recipientDomain,
  recipientsByProject,
  referencedMessageIds,
  repliedEmail,
  senderOf,
} from './inbound-rules.js';

describe('inbound mail rules', () => {
  describe('the domain an envelope recipient is for', () => {
    it('is the part after the last @, lower case, without a trailing dot', () => {
      expect(recipientDomain('Support@Mail.Example.COM')).toBe('mail.example.com');
      expect(recipientDomain('"a@b"@example.com.')).toBe('example.com');
    });

    it('is none for an address without a local part or a proper domain', () => {
      for (const address of [
        'postmaster',
        '@example.com',
        'a@',
        'a@localhost',
        'a@exa mple.com',
        'a@-x.com',
        'a@[127.0.0.1]',
      ])
        expect({ address, domain: recipientDomain(address) }).toEqual({ address, domain: null });
    });
  });

  describe('the message ids of In-Reply-To and References', () => {
    it('are the bracketed ids without brackets, else the bare words', () => {
      expect(messageIdsIn('<eml_1@brand.test> (comment) <x@y>')).toEqual(['eml_1@brand.test', 'x@y']);
      expect(messageIdsIn(['<a@b>', '<c@d>'])).toEqual(['a@b', 'c@d']);
      expect(messageIdsIn('a@b  c@d')).toEqual(['a@b', 'c@d']);
      expect(messageIdsIn(undefined)).toEqual([]);
    });

    it('leave out ids too long to be a Message-ID Herald set', () => {
      expect(messageIdsIn(`<${'x'.repeat(256)}@b> <ok@b>`)).toEqual(['ok@b']);
    });

    it('are tried In-Reply-To first, then References from the newest back, each once, at most 50', () => {
      expect(referencedMessageIds('<c@x>', '<a@x> <b@x> <c@x>')).toEqual(['c@x', 'b@x', 'a@x']);
      expect(referencedMessageIds(undefined, ['<a@x>', '<b@x>'])).toEqual(['b@x', 'a@x']);
      const long = Array.from({ length: 80 }, (_, i) => `<r${i}@x>`).join(' ');
      const ids = referencedMessageIds(undefined, long);
      expect(ids).toHaveLength(50);
      expect(ids[0]).toBe('r79@x');
    });
  });

  describe('the email a reply answers', () => {
    const emails = [
      { id: 'eml_old', messageId: 'eml_old@brand.test' },
      { id: 'eml_new', messageId: 'eml_new@brand.test' },
    ];

    it('is the first of the ids, in their order, that is one of the emails', () => {
      expect(repliedEmail(['unknown@x', 'eml_new@brand.test', 'eml_old@brand.test'], emails)?.id).toBe('eml_new');
      expect(repliedEmail(['eml_old@brand.test', 'eml_new@brand.test'], emails)?.id).toBe('eml_old');
    });

    it('is none when no id is one of them', () => {
      expect(repliedEmail(['unknown@x'], emails)).toBeUndefined();
      expect(repliedEmail([], emails)).toBeUndefined();
    });
  });

  describe('the sender', () => {
    it('is the first valid address of From, normalised, with its display name', () => {
      expect(senderOf([{ address: ' Ada@Example.COM ', name: ' Ada Lovelace ' }], 'bounces@relay.test')).toEqual({
        email: 'ada@example.com',
        name: 'Ada Lovelace',
      });
      expect(senderOf([{ address: 'not an address' }, { address: 'b@example.com' }], '')).toEqual({
        email: 'b@example.com',
      });
    });

    it('is the envelope sender when From has no valid address', () => {
      expect(senderOf([], 'Relay@Example.com')).toEqual({ email: 'relay@example.com' });
      expect(senderOf([{ name: 'No address' }], 'relay@example.com')).toEqual({ email: 'relay@example.com' });
    });

    it('is none for a null sender (a bounce) without a usable From', () => {
      expect(senderOf(undefined, '')).toBeUndefined();
      expect(senderOf([{ address: 'MAILER-DAEMON' }], '')).toBeUndefined();
    });

    it('keeps no NUL in the display name', () => {
      expect(senderOf([{ address: 'a@example.com', name: 'A\u0000B' }], '')?.name).toBe('AB');
    });
  });

  describe('the recipients of each project', () => {
    it('are the normalised addresses that reach it, each once; a domain verified in two projects reaches both', () => {
      const byProject = recipientsByProject([
        { address: 'Support@Brand.test', projectIds: ['prj_a', 'prj_b'] },
        { address: 'support@brand.test', projectIds: ['prj_a'] },
        { address: 'sales@other.test', projectIds: ['prj_b'] },
        { address: 'nobody@x.test', projectIds: [] },
      ]);
      expect([...byProject]).toEqual([
        ['prj_a', ['support@brand.test']],
        ['prj_b', ['support@brand.test', 'sales@other.test']],
      ]);
    });
  });
});
