// What the agent's pollers of the upstream share (playbook runs, Run Now requests): a tick every
// interval, never two at once; stop() waits for the tick under way; a problem is logged once until
// it changes or clears.
export abstract class UpstreamPoller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  protected stopped = true;
  protected lastError = '';

  constructor(
    private readonly label: string,
    private readonly interval: () => number,
    private readonly logLine: (line: string) => void,
  ) {}

  protected abstract tick(): Promise<unknown>;

  start(): void {
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.running = this.tick()
        .catch((e: unknown) => this.problem((e as Error).message))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, this.interval());
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  protected problem(message: string): void {
    if (message !== this.lastError) this.logLine(`${this.label}: ${message}`);
    this.lastError = message;
  }
}
