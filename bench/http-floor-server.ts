import { send, serveValidate, success } from './baseline-common.js';

/**
 * Baseline "http-floor": the same node:http parsing, key hash and reply as the other baselines, and no database at
 * all. Under a fixed offered load it shows what the machine itself (loopback, scheduler, the load generator on the
 * same cores) adds to every answer, so a latency goal can be read against it. Usage: http-floor-server
 */
serveValidate((input, response) => {
  send(response, 200, success(input.platformId, input.gymId, input.gymId, 'Day pass', Date.now()));
});
