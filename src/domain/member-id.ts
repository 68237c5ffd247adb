import { InputError } from './errors.js';

export interface MemberIdFields {
  readonly platform_id?: string | null;
  readonly gympass_id?: string | null;
}

export interface ResolvedMember {
  readonly platformId: string;
  /** What results.user echoes: platform_id always, gympass_id when the request used it. */
  readonly echo: { platform_id: string; gympass_id?: string };
}

/** Both ids sent and different: refused before any other field is looked at. */
export function assertIdsAgree(body: unknown): void {
  if (body === null || typeof body !== 'object') return;
  const { platform_id: platformId, gympass_id: gympassId } = body as Record<string, unknown>;
  if (typeof platformId === 'string' && typeof gympassId === 'string' && platformId !== gympassId) {
    throw new InputError('platform_id', 'must equal gympass_id when both are sent');
  }
}

/** `platform_id`, or its alias `gympass_id`; a null counts as absent. */
export function resolveMember(body: MemberIdFields): ResolvedMember {
  const gympassId = body.gympass_id ?? undefined;
  const platformId = body.platform_id ?? gympassId;
  if (platformId === undefined) throw new InputError('platform_id', 'must be a string of 13 digits');
  return {
    platformId,
    echo:
      gympassId === undefined
        ? { platform_id: platformId }
        : { platform_id: platformId, gympass_id: gympassId },
  };
}
