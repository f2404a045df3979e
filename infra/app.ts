/**
 * The CDK app: `cdk synth|deploy -c env=dev|staging|prod` (dev by default). Account and region come from the CLI's
 * environment (profile or AWS_* variables). The primary logo embedder is the learned one, in the functions; CLIP on
 * SageMaker instead with `-c logoEmbedder=clip -c modelPackageUri=s3://.../<sha256>/model.tar.gz` (the pinned model
 * package the endpoint created for it serves) or `-c clipEndpointName=NAME` (an existing endpoint).
 * `-c alarmEmail=ADDRESS` subscribes an address to the alarms. `-c rulePacks=true` runs the cdk-nag rule packs
 * AwsSolutions and Serverless over the stacks: any unacknowledged finding stops the synthesis with the list.
 */
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import {
  environmentConfig,
  LogoEmbedderChoiceError,
  ModelPackageError,
  UnknownEnvironmentError,
} from './config/environments';
import { addEnvironment } from './stacks/environment';

function optionalContext(app: App, key: string): string | undefined {
  const value: unknown = app.node.tryGetContext(key);
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

const app = new App();
const envName = optionalContext(app, 'env') ?? 'dev';
try {
  const config = environmentConfig(envName, {
    account: process.env.CDK_DEFAULT_ACCOUNT,
    region: process.env.CDK_DEFAULT_REGION,
    logoEmbedder: optionalContext(app, 'logoEmbedder'),
    clipEndpointName: optionalContext(app, 'clipEndpointName'),
    modelPackageUri: optionalContext(app, 'modelPackageUri'),
    alarmEmail: optionalContext(app, 'alarmEmail'),
  });
  addEnvironment(app, config);
  if (optionalContext(app, 'rulePacks') === 'true') {
    Aspects.of(app).add(new AwsSolutionsChecks());
    Aspects.of(app).add(new ServerlessChecks());
  }
  app.synth();
} catch (error) {
  if (
    error instanceof UnknownEnvironmentError ||
    error instanceof ModelPackageError ||
    error instanceof LogoEmbedderChoiceError
  ) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
