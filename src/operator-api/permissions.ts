import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RoleForbiddenError } from '../domain/errors.js';
import { PERMISSION_WORDS, roleMay, type Permission } from '../domain/operator.js';

/**
 * What each operator route does, as the role matrix sees it (src/domain/operator.ts says which role may do what).
 * Every route of the operator API is listed here, `METHOD /admin/v1/path` as it is registered (a GET's HEAD
 * follows its GET). A route missing from this table answers only the admin role, and the role-matrix test
 * (test/operator-api/role-matrix.test.ts) fails until it is added.
 */
export const ROUTE_PERMISSIONS: Readonly<Record<string, Permission>> = {
  'GET /admin/v1/partners': 'read',
  'POST /admin/v1/partners': 'catalog',
  'GET /admin/v1/gyms': 'read',
  'POST /admin/v1/gyms': 'catalog',
  'GET /admin/v1/gyms/:gym_id/products': 'read',
  'POST /admin/v1/gyms/:gym_id/products': 'catalog',
  'PATCH /admin/v1/partners/:partner_id': 'catalog',
  'POST /admin/v1/partners/:partner_id/offboard': 'catalog',
  'PATCH /admin/v1/gyms/:gym_id': 'catalog',
  'POST /admin/v1/gyms/:gym_id/retire': 'catalog',
  'PATCH /admin/v1/products/:product_id': 'catalog',
  'POST /admin/v1/products/:product_id/retire': 'catalog',
  'GET /admin/v1/partners/:partner_id/keys': 'read',
  'POST /admin/v1/partners/:partner_id/keys': 'keys',
  'DELETE /admin/v1/keys/:key_id': 'keys',
  'GET /admin/v1/checkins': 'read',
  'POST /admin/v1/checkins': 'checkins',
  'POST /admin/v1/checkins/:checkin_id/cancel': 'checkins',
  'GET /admin/v1/transactions': 'read',
  'GET /admin/v1/payouts': 'read',
  'POST /admin/v1/transactions/:transaction_id/reversals': 'money',
  'POST /admin/v1/settlements': 'money',
  'GET /admin/v1/settlements': 'read',
  'POST /admin/v1/settlements/:settlement_id/paid': 'money',
  'GET /admin/v1/settlements/:settlement_id/entries': 'read',
  'GET /admin/v1/custom-codes': 'read-secret',
  'GET /admin/v1/audit': 'read',
  'GET /admin/v1/events': 'read',
  'GET /admin/v1/events/stream': 'read',
  'GET /admin/v1/stats/validations': 'read',
  'GET /admin/v1/partners/:partner_id/webhooks': 'read',
  'POST /admin/v1/partners/:partner_id/webhooks': 'webhooks',
  'GET /admin/v1/webhooks/:webhook_id': 'read',
  'PATCH /admin/v1/webhooks/:webhook_id': 'webhooks',
  'DELETE /admin/v1/webhooks/:webhook_id': 'webhooks',
  'POST /admin/v1/webhooks/:webhook_id/secret': 'webhooks',
  'POST /admin/v1/webhooks/:webhook_id/enable': 'webhooks',
  'POST /admin/v1/webhooks/:webhook_id/recover': 'webhooks',
  'GET /admin/v1/webhooks/:webhook_id/deliveries': 'read',
  'GET /admin/v1/webhooks/:webhook_id/deliveries/:delivery_id/attempts': 'read',
  'POST /admin/v1/deliveries/:delivery_id/retry': 'webhooks',
  'POST /admin/v1/webhooks/:webhook_id/test': 'webhooks',
  'GET /admin/v1/partners/:partner_id/compatibility': 'read',
  'PUT /admin/v1/partners/:partner_id/compatibility': 'catalog',
  'GET /admin/v1/partners/:partner_id/integration': 'read',
  'GET /admin/v1/me': 'self',
  'GET /admin/v1/operators': 'operators',
  'POST /admin/v1/operators': 'operators',
  'PATCH /admin/v1/operators/:operator_id': 'operators',
  'DELETE /admin/v1/operators/:operator_id': 'operators',
  'POST /admin/v1/members/:platform_id/erase': 'members',
  'POST /admin/v1/plans': 'catalog',
  'GET /admin/v1/plans': 'read',
  'GET /admin/v1/plans/:plan_id': 'read',
  'PUT /admin/v1/plans/:plan_id': 'catalog',
  'PUT /admin/v1/members/:platform_id/plan': 'checkins',
  'GET /admin/v1/members/:platform_id/plan': 'read',
  'GET /admin/v1/partners/:partner_id/payout-rules': 'read',
  'PUT /admin/v1/partners/:partner_id/payout-rules': 'money',
  'GET /admin/v1/gyms/:gym_id/payout-rules': 'read',
  'PUT /admin/v1/gyms/:gym_id/payout-rules': 'money',
};

/** The permission a route declared, by method and registered URL; undefined when it declared none. */
export function permissionOf(method: string, url: string): Permission | undefined {
  return ROUTE_PERMISSIONS[`${method === 'HEAD' ? 'GET' : method} ${url}`];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set for every operator route from ROUTE_PERMISSIONS; absent: only the admin role may call it. */
    permission?: Permission;
  }
}

export interface OperatorRoute {
  readonly method: string;
  readonly url: string;
  readonly permission: Permission | undefined;
}

/**
 * Attaches each operator route's permission to it as it is registered, and lists the route in `routes`: call
 * before the routes.
 */
export function declarePermissions(app: FastifyInstance, routes: OperatorRoute[]): void {
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      const permission = permissionOf(method, route.url);
      routes.push({ method, url: route.url, permission });
      if (permission !== undefined) route.config = { ...route.config, permission };
    }
  });
}

/** After authentication, before the body is read: a role's forbidden action is 403 naming the role. */
export async function authorizeRole(request: FastifyRequest): Promise<void> {
  const principal = request.operatorPrincipal;
  if (principal === null) throw new Error('operator route reached without authentication');
  const permission = request.routeOptions.config.permission;
  if (principal.role === 'admin') return;
  if (permission !== undefined && roleMay(principal.role, permission)) return;
  const words = permission === undefined ? 'call this route' : PERMISSION_WORDS[permission];
  throw new RoleForbiddenError(principal.role, words);
}
