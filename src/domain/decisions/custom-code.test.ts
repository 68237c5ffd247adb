import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CustomCodeExistsError, CustomCodeNotFoundError, EntityNotFoundError } from '../errors.js';
import { decideCodeCreate, decideCodeDelete, decideCodeUpdate, type CodeState } from './custom-code.js';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const KEY = { kind: 'key', prefix: 'ghk_live_abcd' } as const;
const request = { gymId: 42, platformId: '1234567890123', code: '4321', now: NOW, actor: KEY };
const existing: CodeState = {
  existing: { gymId: 42, platformId: '1234567890123', code: 'OLD', updatedAt: NOW - 1 },
  partnerId: 9,
};
const absent: CodeState = { existing: undefined, partnerId: 9 };

const event = (type: string) => ({
  kind: 'event',
  event: {
    type,
    occurredAt: NOW,
    partnerId: 9,
    gymId: 42,
    data: { platform_id: '1234567890123', gym_id: 42 },
  },
});
const audit = (action: string) => ({
  kind: 'audit',
  entry: { actor: KEY, action, entity: 'custom-code', entityId: '42:1234567890123' },
  at: NOW,
});

describe('custom code decisions', () => {
  const member = { gymId: 42, platformId: '1234567890123' };
  test.each([
    [
      'has no code, then create inserts it',
      {
        decide: () => decideCodeCreate(request, absent),
        write: { kind: 'insert-code', ...member, code: '4321', at: NOW },
        action: 'create',
      },
    ],
    [
      'has a code, then update replaces it',
      {
        decide: () => decideCodeUpdate(request, existing),
        write: { kind: 'update-code', ...member, code: '4321', at: NOW },
        action: 'update',
      },
    ],
    [
      'has a code, then delete removes it',
      {
        decide: () => decideCodeDelete(request, existing),
        write: { kind: 'delete-code', ...member },
        action: 'delete',
      },
    ],
  ])('when a member %s, announces it and audits the key', (_when, { decide, write, action }) => {
    expect(decide()).toEqual({
      outcome: undefined,
      writes: [write, event(`custom_code.${action}d`), audit(action)],
    });
  });

  test('when the code exists, then a second create is refused; when it does not, update and delete are', () => {
    expect(() => decideCodeCreate(request, existing)).toThrow(CustomCodeExistsError);
    expect(() => decideCodeUpdate(request, absent)).toThrow(CustomCodeNotFoundError);
    expect(() => decideCodeDelete(request, absent)).toThrow(CustomCodeNotFoundError);
  });

  test('when the gym does not exist, then every change is refused', () => {
    const noGym = { existing: undefined, partnerId: undefined };
    for (const decide of [decideCodeCreate, decideCodeUpdate, decideCodeDelete]) {
      expect(() => decide(request, noGym)).toThrow(new EntityNotFoundError('gym'));
    }
  });

  test('for any code, the events and audit rows never carry it', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 13 }), fc.boolean(), (code, had) => {
        const decision = had
          ? decideCodeUpdate({ ...request, code }, existing)
          : decideCodeCreate({ ...request, code }, absent);
        for (const write of decision.writes) {
          if (write.kind === 'event') expect(Object.values(write.event.data)).not.toContain(code);
          if (write.kind === 'audit') expect(Object.values(write.entry)).not.toContain(code);
        }
      }),
    );
  });
});
