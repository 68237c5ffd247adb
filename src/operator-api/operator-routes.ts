import type { RouteGroup } from '../http/route-group.js';
import { Type } from 'typebox';
import { parseInstant } from '../domain/instant.js';
import {
  GRANTS,
  OPERATOR_NAME_PATTERN,
  PERMISSIONS,
  ROLES,
  type Permission as PermissionName,
  type Role as RoleName,
} from '../domain/operator.js';
import { formatInstant } from '../domain/time-format.js';
import { pageRoute, revokeRoute } from './record-routes.js';
import { principalOf } from './authenticate.js';
import { presentOperator } from '../presenters/records.js';
import { Id, IdString, operatorErrorResponses } from './schemas.js';

/** A union of literals, so a wrong role's 400 names every allowed one. */
const Role = Type.Unsafe<RoleName>(Type.Union(ROLES.map((role) => Type.Literal(role))));
const Permission = Type.Unsafe<PermissionName>(
  Type.Union(PERMISSIONS.map((permission) => Type.Literal(permission))),
);
const Instant = Type.String({ description: 'ISO-8601 UTC with milliseconds' });
const NullableInstant = Type.Union([Instant, Type.Null()]);

export const Operator = Type.Object({
  id: Id,
  name: Type.String(),
  role: Role,
  prefix: Type.String({ description: '`gho_` and 8 hex digits: recognises the token, is not secret' }),
  expires_at: NullableInstant,
  revoked_at: NullableInstant,
  created_by: Type.String({ description: '`operator` or `operator:<name>`' }),
  created_at: Instant,
});
export const IssuedOperator = Type.Object({
  id: Id,
  name: Type.String(),
  role: Role,
  token: Type.String({ description: 'The token (`gho_…`): returned only here, stored as its hash' }),
  expires_at: NullableInstant,
  created_at: Instant,
});

export const Me = Type.Object({
  name: Type.Union([Type.String(), Type.Null()], {
    description: "The operator's name; null for one of the environment's admin tokens",
  }),
  role: Role,
  permissions: Type.Array(Permission, {
    description: 'What this role may do, as the operator API checks it: a client may hide what is absent',
  }),
  expires_at: NullableInstant,
  timezone: Type.String({
    description: "The network's time zone (GATEHOUSE_TIMEZONE): the default periods and days are read there",
  }),
});

const instantOrNull = (value: number | null) => (value === null ? null : formatInstant(value));

/** Operator identities: issue (the token shown once), list without tokens, revoke (the admin role only); and who is calling (every role). */
export const operatorRoutes: RouteGroup = async (app, { services }) => {
  const { operators } = services;

  app.post(
    '/operators',
    {
      schema: {
        summary: 'Create an operator with a role; its token is shown once',
        body: Type.Object({
          name: Type.String({ pattern: OPERATOR_NAME_PATTERN, description: 'A login or an e-mail address' }),
          role: Role,
          expires_at: Type.Optional(Type.Union([Type.String(), Type.Null()])),
        }),
        response: { 201: IssuedOperator, ...operatorErrorResponses },
      },
    },
    async (request, reply) => {
      const { name, role, expires_at: expiresAt } = request.body;
      const issued = await operators.create(
        {
          name,
          role,
          expiresAt:
            expiresAt === undefined || expiresAt === null ? null : parseInstant('expires_at', expiresAt),
        },
        principalOf(request),
      );
      const { operator } = issued;
      return reply.code(201).send({
        id: operator.id,
        name: operator.name,
        role: operator.role,
        token: issued.token,
        expires_at: instantOrNull(operator.expiresAt),
        created_at: formatInstant(operator.createdAt),
      });
    },
  );

  app.get(
    '/me',
    {
      schema: {
        summary: 'Who is calling: the name, the role and what it may do',
        response: { 200: Me, ...operatorErrorResponses },
      },
    },
    async (request) => {
      const { role, operator } = principalOf(request);
      return {
        name: operator?.name ?? null,
        role,
        permissions: PERMISSIONS.filter((permission) => GRANTS[role].has(permission)),
        expires_at: instantOrNull(operator?.expiresAt ?? null),
        timezone: services.timezone,
      };
    },
  );

  pageRoute(app, {
    url: '/operators',
    summary: 'List operators (never their tokens)',
    item: Operator,
    list: (page) => operators.list(page),
    present: presentOperator,
  });

  app.patch(
    '/operators/:operator_id',
    {
      schema: {
        summary:
          "Change an operator's role: its token keeps working, with the new role from its next request",
        params: Type.Object({ operator_id: IdString }),
        body: Type.Object({ role: Role }),
        response: { 200: Operator, ...operatorErrorResponses },
      },
    },
    async (request) =>
      presentOperator(
        await operators.changeRole(
          Number(request.params.operator_id),
          request.body.role,
          principalOf(request),
        ),
      ),
  );

  revokeRoute(app, {
    url: '/operators/:operator_id',
    summary: "Revoke an operator's token: refused from its next request on",
    revoke: (id, actor) => operators.revoke(id, actor),
  });
};
