// The most the service ever writes: every log level, and metrics on. Imported first by suites that read the logs,
// so that loggers built when a module loads see it too. The suite's own process ends with it.
process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
process.env.POWERTOOLS_METRICS_DISABLED = 'false';
