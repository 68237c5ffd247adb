import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ConfirmAction } from './forms.js';
import type { Session } from './session.js';
import type { Erasure } from './wire.js';
import { t } from './strings/index.js';

const MEMBER_ID = /^[0-9]{13}$/;

/** The rows an erasure changed, as a sentence: "2 check-ins, 1 transaction, …" (the ones it did not touch left out). */
const changed = (erasure: Erasure) =>
  (Object.entries(erasure.erased) as [keyof Erasure['erased'], number][])
    .filter(([, count]) => count > 0)
    .map(([what, count]) => t.erasure.rows[what](count))
    .join(', ') || t.erasure.nothing;

/** A member's data erased on request: asked in the page, saying what will happen, then what it changed. */
export function MemberErasure({ session }: { session: Session }) {
  const [member, setMember] = useState('');
  const [done, setDone] = useState<{ member: string; erasure: Erasure }>();
  const valid = MEMBER_ID.test(member);
  return (
    <section aria-labelledby="erase-title">
      <h2 id="erase-title">{t.erasure.title}</h2>
      <div class="action-form" role="group" aria-label={t.erasure.title}>
        <label>
          {t.erasure.memberId}
          <input
            name="member"
            inputMode="numeric"
            pattern="[0-9]{13}"
            value={member}
            onInput={(event) => setMember(event.currentTarget.value.trim())}
          />
        </label>
        {valid && (
          <ConfirmAction
            label={t.erasure.erase}
            name={t.erasure.eraseOf(member)}
            question={t.erasure.question(member)}
            act={async () => {
              const erasure = await call<Erasure>(session, 'POST', `/admin/v1/members/${member}/erase`);
              setDone({ member, erasure });
              setMember('');
            }}
          />
        )}
      </div>
      {done !== undefined && (
        <p role="status" class="note">
          {t.erasure.done(done.member, done.erasure.pseudonym, changed(done.erasure))}
          {done.erasure.not_reached.length > 0 && t.erasure.notReached(done.erasure.not_reached.join('; '))}
        </p>
      )}
    </section>
  );
}
