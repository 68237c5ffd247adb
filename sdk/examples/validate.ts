import { GatehouseClient } from '../src/index.js';

/**
 * The README's "Client SDK" example. The five lines between the markers are quoted there verbatim, and
 * test/sdk/readme-example.test.ts checks that and runs this function against a live gatehouse.
 */
export async function admitMember(baseUrl: string, apiKey: string, gymId: number, platformId: string) {
  // README:begin
  const gatehouse = new GatehouseClient({ baseUrl, apiKey, gymId, timeoutMs: 5000 });
  const result = await gatehouse.validate({ platformId }, { retry: { attempts: 3, delayMs: 1000 } });
  // validated-earlier: a lost answer's attempt had validated it. details: null if the 200 had no body.
  const plan = result.status === 'validated' ? result.details?.gym.product.description : undefined;
  const greeting = plan === undefined ? 'Welcome!' : `Welcome! Enjoy your ${plan}.`;
  // README:end
  return { result, greeting };
}
