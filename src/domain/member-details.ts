/**
 * What the front desk may show of a member who checks in: each field optional, at most 100 characters, no control
 * character (the route's schema holds that rule). Kept under the names the API and events use, since it passes
 * through to them unchanged. Never logged; erased with the member.
 */
export interface MemberDetails {
  readonly first_name?: string;
  readonly last_name?: string;
  readonly email?: string;
  readonly phone_number?: string;
}

export const MEMBER_FIELDS = ['first_name', 'last_name', 'email', 'phone_number'] as const;
export const MEMBER_FIELD_MAX_LENGTH = 100;

/**
 * The details given, or undefined when none were: a field sent as `""` says nothing (it is neither stored nor sent,
 * and one stored so by an earlier release is read as absent), and an empty object says nothing either.
 */
export function givenMemberDetails(member: MemberDetails | undefined): MemberDetails | undefined {
  if (member === undefined) return undefined;
  const given = MEMBER_FIELDS.flatMap((field) => {
    const value = member[field];
    return value === undefined || value === '' ? [] : [[field, value]];
  });
  return given.length === 0 ? undefined : (Object.fromEntries(given) as MemberDetails);
}

/** The details as stored: JSON, or null when none were given. */
export function memberColumn(member: MemberDetails | undefined): string | null {
  const given = givenMemberDetails(member);
  return given === undefined ? null : JSON.stringify(given);
}

export function memberFromColumn(column: string | null | undefined): MemberDetails | undefined {
  return column === null || column === undefined
    ? undefined
    : givenMemberDetails(JSON.parse(column) as MemberDetails);
}
