/**
 * A named step of a multi-step write where a crash must be recoverable (a graph node's merge, for
 * one). When `WEIR_FAULT_AT` names the step, the process kills itself there with SIGKILL, so tests
 * through the binary can stop it at every step, not only where a timer happens to land. Setting the
 * variable can only end weir's own process, which whoever sets it could do anyway.
 */
export function faultPoint(step: string): void {
  if (process.env.WEIR_FAULT_AT === step) process.kill(process.pid, "SIGKILL");
}
