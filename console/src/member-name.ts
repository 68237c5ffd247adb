import type { MemberDetails } from './wire.js';
export type { MemberDetails } from './wire.js';

/** How the desk greets a member: first name and last initial ("Ana S."), whatever of them was sent; none otherwise. */
export function memberName(member: MemberDetails | undefined): string | undefined {
  const first = member?.first_name?.trim() ?? '';
  const initial = [...(member?.last_name?.trim() ?? '')][0];
  const name = [first, initial === undefined ? '' : `${initial.toUpperCase()}.`]
    .filter((part) => part !== '')
    .join(' ');
  return name === '' ? undefined : name;
}
