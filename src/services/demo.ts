import { DailyLimitError } from '../domain/errors.js';
import type { Services } from './index.js';

export const DEMO_GYM_ID = 1;
export const DEMO_PLATFORM_ID = '1234567890123';

export interface DemoAccess {
  readonly key: string;
  readonly gymId: number;
  readonly platformId: string;
}

/**
 * A demo partner, gym, product, key and a pending check-in, so a first run has something to validate. Run again,
 * it reuses the demo gym and adds a fresh key and check-in.
 */
export async function seedDemo(services: Services): Promise<DemoAccess> {
  const gym = await services.catalog.getGym(DEMO_GYM_ID).catch(async () => {
    const partner = await services.catalog.createPartner('Demo Fitness');
    return services.catalog.createGym({
      id: DEMO_GYM_ID,
      partnerId: partner.id,
      name: 'Demo Fitness Downtown',
    });
  });
  const product =
    (await services.catalog.listProducts(gym.id))[0] ??
    (await services.catalog.createProduct(gym.id, { description: 'Day pass', payoutCents: 1500 }));
  const issued = await services.apiKeys.issue(gym.partnerId, { label: 'demo front desk' });
  const platformId = await createDemoCheckin(services, gym.id, product.id);
  return { key: issued.secret, gymId: gym.id, platformId };
}

/**
 * A pending check-in of the demo member or, once that member has used up today's visits (the demo was run and
 * validated before), of the next member id that has not.
 */
async function createDemoCheckin(services: Services, gymId: number, productId: number): Promise<string> {
  for (let offset = 0; ; offset += 1) {
    const platformId = String(Number(DEMO_PLATFORM_ID) + offset);
    try {
      await services.checkins.create({ platformId, gymId, productId });
      return platformId;
    } catch (error) {
      if (!(error instanceof DailyLimitError) || offset >= 999) throw error;
    }
  }
}

export function curlValidateLine(baseUrl: string, demo: DemoAccess): string {
  return (
    `curl -s -X POST ${baseUrl}/access/v1/validate -H 'Authorization: Bearer ${demo.key}' ` +
    `-H 'X-Gym-Id: ${demo.gymId}' -H 'Content-Type: application/json' -d '{"platform_id":"${demo.platformId}"}'`
  );
}
