import { setTimeout as sleep } from 'node:timers/promises';
import { openConnection, postHead } from './raw-socket.js';

/** Splits one HTTP/1.1 response (the last on the connection) into status line, headers and JSON body. */
export function lastResponse(text: string) {
  const start = text.lastIndexOf('HTTP/1.1 ');
  const [head = '', body = ''] = text.slice(start).split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) as unknown };
}

/** A validate whose body is all sent but its last byte: in flight, held open by the client. */
export async function inFlightValidate(
  server: { address: { host: string; port: number } },
  headers: Record<string, string>,
  member: string,
) {
  const body = JSON.stringify({ platform_id: member });
  const connection = await openConnection(server.address);
  connection.write(postHead('/access/v1/validate', headers, body.length) + body.slice(0, -1));
  await sleep(200);
  return { connection, finish: () => connection.write(body.slice(-1)) };
}
