// Tests read logs only where they mean to; keep the run's output readable.
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
// Lambda runs Node 22; the SDK's notice about this machine's Node 20 says nothing about the code under test.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
