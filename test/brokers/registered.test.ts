// Every broker the server registers passes the one conformance suite against a fake of its own: a broker folder
// added to the registry without `test/brokers/<type>.conformance.test.ts` (calling `brokerConformance`) and a fake
// under `test/fakes/` fails here, so no broker ships untested.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BROKER_DEFINITIONS } from '../../server/src/brokers/registry';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The fake of each broker: its folder under test/fakes/ (Kite's is named after the API). */
const FAKE_FOLDER: Readonly<Record<string, string>> = { zerodha: 'kite' };

describe('registered brokers', () => {
  it.each(BROKER_DEFINITIONS.map((d) => [d.type]))(
    '%s runs the conformance suite against its fake',
    (type) => {
      const file = join(HERE, `${type}.conformance.test.ts`);
      expect(existsSync(file), `${file} is missing`).toBe(true);
      expect(readFileSync(file, 'utf8')).toMatch(/\bbrokerConformance\(\{\s*name: '/);
      expect(existsSync(join(HERE, '..', 'fakes', FAKE_FOLDER[type] ?? type, 'server.ts'))).toBe(true);
    },
  );
});
