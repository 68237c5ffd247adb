import { expect } from 'vitest';
import { arrangePartner, platformId } from '../fixtures/factories.js';
import type { TestApp } from '../fixtures/test-app.js';

/** One request of the scenario: what is sent (with its own X-Request-Id) and the status it must get. */
export interface Step {
  readonly id: string;
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: unknown;
  readonly status: number;
}

export const CUSTOM_CODE = 'S3CR3T-C0DE';
/** A well-formed key that does not exist: refused with 403, and never to be logged either. */
export const UNKNOWN_KEY = `ghk_0badc0de_${'e'.repeat(40)}`;

/**
 * A run of partner and operations requests on a fresh app: a valid validate, the same again (already
 * validated), one for a member with no check-in, a code read (404) and create, a health check, a refused key
 * (403), no key (401), an unknown path (404) and a wrong method (405). Every request but the first and the
 * refused key's finds its key in the cache.
 */
export async function runScenario(t: TestApp) {
  const a = await arrangePartner(t.services);
  const checkin = await t.services.checkins.create({
    platformId: platformId(),
    gymId: a.gym.id,
    productId: a.product.id,
  });
  const member = platformId();
  const json = { ...a.headers, 'content-type': 'application/json' };
  const steps: Step[] = [
    {
      id: 'obs-1',
      method: 'POST',
      url: '/access/v1/validate',
      headers: json,
      status: 200,
      body: { platform_id: checkin.platformId, custom_code: CUSTOM_CODE },
    },
    {
      id: 'obs-2',
      method: 'POST',
      url: '/access/v1/validate',
      headers: json,
      status: 400,
      body: { platform_id: checkin.platformId },
    },
    {
      id: 'obs-3',
      method: 'POST',
      url: '/access/v1/validate',
      headers: json,
      status: 404,
      body: { platform_id: member },
    },
    { id: 'obs-4', method: 'GET', url: `/access/v1/code/${member}`, headers: a.headers, status: 404 },
    {
      id: 'obs-5',
      method: 'POST',
      url: `/access/v1/code/${member}`,
      headers: json,
      status: 201,
      body: { custom_code: CUSTOM_CODE },
    },
    { id: 'obs-6', method: 'GET', url: '/health', headers: {}, status: 200 },
    {
      id: 'obs-7',
      method: 'POST',
      url: '/access/v1/validate',
      headers: { ...json, authorization: `Bearer ${UNKNOWN_KEY}` },
      status: 403,
      body: { platform_id: member },
    },
    {
      id: 'obs-8',
      method: 'POST',
      url: '/access/v1/validate',
      headers: { 'x-gym-id': a.headers['x-gym-id'], 'content-type': 'application/json' },
      status: 401,
      body: { platform_id: member },
    },
    { id: 'obs-9', method: 'GET', url: '/no/such/path', headers: {}, status: 404 },
    { id: 'obs-10', method: 'DELETE', url: '/access/v1/validate', headers: a.headers, status: 405 },
  ];
  for (const step of steps) {
    const response = await t.app.inject({
      method: step.method,
      url: step.url,
      headers: { ...step.headers, 'x-request-id': step.id },
      ...(step.body === undefined ? {} : { payload: JSON.stringify(step.body) }),
    });
    expect({ id: step.id, status: response.statusCode }).toEqual({ id: step.id, status: step.status });
    expect(response.headers['x-request-id']).toBe(step.id);
  }
  return { a, checkin, member, steps };
}
