export type { CaptureEvent, CaptureMachineState } from "./capture-machine.js";
export { transitionCapture } from "./capture-machine.js";
export type { CaptureOutput, CaptureProcessor } from "./capture-runner.js";
