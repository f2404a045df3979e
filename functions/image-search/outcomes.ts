/**
 * The outcome (and so the metric) of an image search answered from the degraded index because the primary path's
 * model could not be loaded; infra/constructs/alarms.ts alarms on the first one.
 */
export const MODEL_UNLOADABLE_OUTCOME = 'ModelUnloadable';
