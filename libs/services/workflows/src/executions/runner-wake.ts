/**
 * Wakes the runtime's runners when work became due now (an execution started, an awaited event
 * arrived). The runtime's `StepRunner` is bound to this class in the module: executions never
 * import the runtime.
 */
export abstract class RunnerWake {
  abstract wake(): void;
}
