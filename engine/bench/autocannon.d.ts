// The few parts of autocannon (a devDependency without types) that the order API bench uses.
declare module "autocannon" {
  interface Result {
    "2xx": number;
    non2xx: number;
    errors: number;
    timeouts: number;
    duration: number;
  }
  interface Instance extends PromiseLike<Result> {
    on(event: "response", listener: (client: unknown, status: number, bytes: number, responseTime: number) => void): void;
  }
  function autocannon(options: Record<string, unknown>): Instance;
  export default autocannon;
}
