import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ConfirmAction } from './forms.js';
import type { Session } from './session.js';
import type { Erasure } from './wire.js';

const MEMBER_ID = /^[0-9]{13}$/;

/** The rows an erasure changed, as a sentence: "2 checkins, 1 transactions, …" (the ones it did not touch left out). */
const changed = (erasure: Erasure) =>
  Object.entries(erasure.erased)
    .filter(([, count]) => count > 0)
    .map(([what, count]) => `${count} ${what.replaceAll('_', ' ')}`)
    .join(', ') || 'nothing (already erased, or never here)';

/** A member's data erased on request: asked in the page, saying what will happen, then what it changed. */
export function MemberErasure({ session }: { session: Session }) {
  const [member, setMember] = useState('');
  const [done, setDone] = useState<{ member: string; erasure: Erasure }>();
  const valid = MEMBER_ID.test(member);
  return (
    <section aria-labelledby="erase-title">
      <h2 id="erase-title">Erase a member</h2>
      <div class="action-form" role="group" aria-label="Erase a member">
        <label>
          Member id (13 digits)
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
            label="Erase member"
            name={`Erase member ${member}`}
            question={`Member ${member}'s custom codes are deleted, their events' details purged, and their id replaced by a pseudonym in check-ins, visits and the audit. This cannot be undone.`}
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
          Member {done.member} is now {done.erasure.pseudonym}. Changed: {changed(done.erasure)}.
          {done.erasure.not_reached.length > 0 && ` Not reached: ${done.erasure.not_reached.join('; ')}.`}
        </p>
      )}
    </section>
  );
}
