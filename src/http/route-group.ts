import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../services/index.js';

/** A file's routes, registered as a plugin given the services: how both APIs group their routes. */
export type RouteGroup = FastifyPluginAsyncTypebox<{ services: Services }>;
