/**
 * The queue of pending faults: a fault matches requests by optional `method` and `path` and is
 * used up after `times` matching requests; only the first matching queued fault applies.
 */
import type { FakeRequest } from "../types.js";
import type { Fault } from "./kinds.js";

function matches(fault: Fault, req: FakeRequest): boolean {
  if (req.method === "OPTIONS") return false;
  if (fault.method !== undefined && fault.method.toUpperCase() !== req.method.toUpperCase()) return false;
  if (fault.path === undefined) return true;
  return typeof fault.path === "string" ? fault.path === req.path : fault.path.test(req.path);
}

/**
 * The queue of pending faults of one fake service.
 *
 * @example
 * ```ts
 * svc.state.faults.inject(faults.serviceUnavailable({ times: 2 }));
 * // ... calls that meet the two 503s ...
 * expect(svc.state.faults.pending()).toHaveLength(0);
 * ```
 */
export class FaultQueue {
  private readonly entries: Array<{ fault: Fault; remaining: number }> = [];

  /**
   * Queues a fault.
   *
   * @example
   * ```ts
   * svc.state.faults.inject({ kind: "status", status: 500 });
   * ```
   */
  inject(fault: Fault): void {
    this.entries.push({ fault, remaining: fault.times ?? 1 });
  }

  /**
   * Takes the first matching fault for a request and uses up one of its `times`.
   *
   * @example
   * ```ts
   * const queue = new FaultQueue();
   * queue.inject({ kind: "status", status: 503, path: "/v1/models" });
   * const signal = new AbortController().signal;
   * queue.take({ method: "GET", path: "/v1/models", query: "", headers: {}, body: "", json: undefined, signal })?.kind;
   * // "status"; the next take finds nothing
   * ```
   */
  take(req: FakeRequest): Fault | undefined {
    const index = this.entries.findIndex((e) => e.remaining > 0 && matches(e.fault, req));
    if (index < 0) return undefined;
    const entry = this.entries[index]!;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.entries.splice(index, 1);
    return entry.fault;
  }

  /**
   * Faults not used up yet.
   *
   * @example
   * ```ts
   * expect(svc.state.faults.pending()).toHaveLength(0);
   * ```
   */
  pending(): Fault[] {
    return this.entries.map((e) => e.fault);
  }

  /**
   * Drops every pending fault.
   *
   * @example
   * ```ts
   * svc.state.faults.clear();
   * ```
   */
  clear(): void {
    this.entries.length = 0;
  }
}
