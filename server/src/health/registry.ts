// Subsystems (database, engine, feed, payments, …) report their health here; `GET /api/health` asks all of them.
// A subsystem registers a check once at startup; checks must be cheap and must not throw (a throw counts as down).
import type { SubsystemStatus } from '../contract';

export interface SubsystemHealth {
  status: SubsystemStatus;
  detail?: string;
}

export type HealthCheck = () => SubsystemHealth | Promise<SubsystemHealth>;

export interface HealthRegistry {
  register(name: string, check: HealthCheck): void;
  /** Runs every check; `critical` subsystems decide between ok/degraded and down. */
  report(): Promise<{ status: SubsystemStatus; subsystems: Record<string, SubsystemHealth> }>;
}

/** Creates a registry; subsystems named in `critical` make the whole service down when they are down. */
export function createHealthRegistry(critical: readonly string[] = ['database']): HealthRegistry {
  const checks = new Map<string, HealthCheck>();
  return {
    register(name, check) {
      if (checks.has(name)) throw new Error(`health check "${name}" is already registered`);
      checks.set(name, check);
    },
    async report() {
      const entries = await Promise.all(
        [...checks].map(async ([name, check]): Promise<[string, SubsystemHealth]> => {
          try {
            return [name, await check()];
          } catch (err) {
            return [name, { status: 'down', detail: err instanceof Error ? err.message : 'check failed' }];
          }
        }),
      );
      const subsystems = Object.fromEntries(entries);
      const statuses = entries.map(([name, h]) => ({ name, status: h.status }));
      const status: SubsystemStatus = statuses.some((s) => s.status === 'down' && critical.includes(s.name))
        ? 'down'
        : statuses.some((s) => s.status !== 'ok')
          ? 'degraded'
          : 'ok';
      return { status, subsystems };
    },
  };
}
