/**
 * Work run every `intervalMs` in the background (the margin, loan and staking loops, the
 * simulator's bots): one run at a time (a run still going when the next is due is not doubled),
 * its failure logged and the next run tried as usual; the timer never keeps the process alive,
 * and `stop` waits for a run in progress.
 */
export class IntervalTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly name: string,
    private readonly run: () => Promise<unknown>,
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      this.running ??= this.run()
        .catch((error: unknown) => this.log(`${this.name} failed: ${(error as Error).message}`))
        .finally(() => {
          this.running = null;
        });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
