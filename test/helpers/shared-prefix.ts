import { expect } from 'vitest';
import type { FakeModelServer } from './fake-model-server';

/** OpenAI requests of one session: request i+1 repeats request i, the same tools JSON and each earlier message serialized the same. */
export function assertSharedPrefixes(fake: FakeModelServer): void {
  const bodies = fake.requests.filter((r) => r.usage).map((r) => r.raw);
  expect(bodies.length).toBeGreaterThan(1);
  for (let i = 0; i + 1 < bodies.length; i++) {
    const [a, b] = [JSON.parse(bodies[i]!), JSON.parse(bodies[i + 1]!)] as { tools: unknown; messages: unknown[] }[];
    expect(JSON.stringify(b!.tools)).toBe(JSON.stringify(a!.tools));
    expect(b!.messages.length).toBeGreaterThan(a!.messages.length);
    // The serialized message list of request i is where request i+1's starts, byte for byte.
    const earlier = JSON.stringify(a!.messages).slice(0, -1);
    expect(JSON.stringify(b!.messages).startsWith(earlier)).toBe(true);
    // And so in the raw bodies as sent: everything before the messages' end is the same bytes.
    const end = bodies[i]!.indexOf(earlier);
    expect(end).toBeGreaterThan(0);
    expect(bodies[i + 1]!.startsWith(bodies[i]!.slice(0, end + earlier.length))).toBe(true);
  }
}
