import type { FastifyRequest } from 'fastify';
import { carriesMemberDetails, type MemberDetailsView } from '../domain/member-details.js';
import { memberDetailsViewOf } from '../domain/operator.js';
import type { Services } from '../services/index.js';
import { actorOfRequest, principalOf } from './authenticate.js';

/** How the caller's role sees members' names, e-mails and phones (src/domain/operator.ts). */
export function memberDetailsView(request: FastifyRequest): MemberDetailsView {
  return memberDetailsViewOf(principalOf(request).role);
}

/**
 * Audits an answer that showed members' details in full: once per request (or stream opened), naming the route,
 * never once per row; an answer with none, or with them masked, is not a read of them.
 */
export async function auditMemberDetailsRead(
  services: Services,
  request: FastifyRequest,
  records: readonly ({ member?: unknown } | null | undefined)[],
): Promise<void> {
  if (memberDetailsView(request) !== 'full' || !records.some(carriesMemberDetails)) return;
  await services.members.recordDetailsRead(
    actorOfRequest(request),
    `${request.method} ${request.routeOptions.url}`,
  );
}
