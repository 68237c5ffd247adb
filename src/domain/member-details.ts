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

/**
 * How an operator's role sees members' names, e-mails and phones: in full for the roles that deal with members
 * (admin, support, the member app), masked for the rest (finance, readonly), who have no need of them.
 */
export type MemberDetailsView = 'full' | 'masked';

/** A value masked to its first character and its length: "Ana" → "A**". */
export function maskedText(value: string): string {
  const characters = [...value];
  return characters.length === 0 ? '' : `${characters[0]}${'*'.repeat(characters.length - 1)}`;
}

export function viewMemberDetails(member: MemberDetails, view: MemberDetailsView): MemberDetails {
  if (view === 'full') return member;
  return Object.fromEntries(
    MEMBER_FIELDS.flatMap((field) => {
      const value = member[field];
      return value === undefined ? [] : [[field, maskedText(value)]];
    }),
  );
}

/** An event's data with its member details, if any, seen as the role may see them. */
export function viewEventMember<T extends Record<string, unknown> | null>(
  data: T,
  view: MemberDetailsView,
): T {
  if (view === 'full' || data === null) return data;
  const member = data.member;
  if (member === null || typeof member !== 'object') return data;
  return { ...data, member: viewMemberDetails(member, view) };
}

/** Whether a record carries member details at all (an answer that shows none in full need not be audited). */
export function carriesMemberDetails(record: { member?: unknown } | null | undefined): boolean {
  return record?.member !== undefined && record.member !== null;
}
