// A fleet booting at once asks for the same remote template hundreds of times within a second. Requests
// that arrive while a fetch of the same URL (with the same credentials) is under way share its result,
// success or failure; nothing is kept once it settles, so an edit of the remote file shows on the next call.
import type { RemoteSource } from '../codebox/codebox.ts';
import type { TemplateSource } from '../download.service.ts';

export class CoalescingTemplateSource implements TemplateSource {
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(private readonly inner: TemplateSource) {}

  fetch(source: RemoteSource): Promise<string> {
    const key = JSON.stringify([source.url ?? '', source.user ?? '', source.password ?? '']);
    const running = this.inFlight.get(key);
    if (running) return running;
    const started = this.inner.fetch(source).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, started);
    return started;
  }

  /** Fetches under way (for tests and diagnostics). */
  get pending(): number {
    return this.inFlight.size;
  }
}
