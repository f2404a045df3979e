/**
 * The image-embedding endpoint. Either this environment creates it (a SageMaker model: the pinned PyTorch inference
 * container running the model package's own inference code on the package's pinned weights; an endpoint config
 * with instances or serverless capacity from config; the endpoint), or it imports an existing endpoint by name.
 * Either way it exposes the endpoint name and one grant: sagemaker:InvokeEndpoint on exactly that endpoint.
 */
import { ArnFormat, Aws, Stack } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { CfnEndpoint, CfnEndpointConfig, CfnModel } from 'aws-cdk-lib/aws-sagemaker';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { ModelPackageError, type ClipEndpointChoice, type ModelPackage } from '../config/environments';

export interface ClipEndpointProps {
  choice: ClipEndpointChoice;
  /** Required to create an endpoint: the package it serves. */
  modelPackage?: ModelPackage;
  /** `tmk-<env>`: the endpoint created here is named `<prefix>-clip`, a stable name for IAM and for operators. */
  prefix: string;
}

export class ClipEndpoint extends Construct {
  readonly endpointName: string;
  readonly endpointArn: string;
  readonly created: boolean;

  constructor(scope: Construct, id: string, props: ClipEndpointProps) {
    super(scope, id);
    const choice = props.choice;
    if (choice.mode === 'import') {
      this.endpointName = choice.endpointName;
      this.created = false;
    } else {
      this.endpointName = `${props.prefix}-clip`;
      this.created = true;
      if (!props.modelPackage) {
        throw new ModelPackageError(
          `${props.prefix} creates its embedding endpoint from a pinned model package: build and upload one (npm run model:package, infra/DEPLOY.md) and pass -c modelPackageUri=s3://.../<sha256>/model.tar.gz, or pass -c clipEndpointName=<existing endpoint>`,
        );
      }
      this.createEndpoint(choice, props.modelPackage);
    }
    // SageMaker ARNs carry the endpoint name in lower case.
    this.endpointArn = Stack.of(this).formatArn({
      service: 'sagemaker',
      resource: 'endpoint',
      resourceName: this.endpointName.toLowerCase(),
    });
  }

  grantInvoke(grantee: IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['sagemaker:InvokeEndpoint'], resources: [this.endpointArn] }),
    );
  }

  private createEndpoint(choice: Extract<ClipEndpointChoice, { mode: 'create' }>, modelPackage: ModelPackage): void {
    const { container } = choice;
    const repositoryArn = Stack.of(this).formatArn({
      service: 'ecr',
      account: container.registryAccount,
      resource: 'repository',
      resourceName: container.repository,
    });
    const role = new Role(this, 'ExecutionRole', { assumedBy: new ServicePrincipal('sagemaker.amazonaws.com') });
    role.addToPolicy(
      new PolicyStatement({
        actions: ['ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer', 'ecr:BatchCheckLayerAvailability'],
        resources: [repositoryArn],
      }),
    );
    // GetAuthorizationToken has no resource-level permissions.
    role.addToPolicy(new PolicyStatement({ actions: ['ecr:GetAuthorizationToken'], resources: ['*'] }));
    role.addToPolicy(
      new PolicyStatement({
        actions: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [
          Stack.of(this).formatArn({
            service: 'logs',
            resource: 'log-group',
            resourceName: `/aws/sagemaker/Endpoints/${this.endpointName}:*`,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        ],
      }),
    );
    role.addToPolicy(
      new PolicyStatement({
        actions: ['cloudwatch:PutMetricData'],
        resources: ['*'],
        conditions: { StringEquals: { 'cloudwatch:namespace': '/aws/sagemaker/Endpoints' } },
      }),
    );

    // The package, and nothing else of its bucket.
    const [, bucket, key] = /^s3:\/\/([^/]+)\/(.+)$/.exec(modelPackage.s3Uri)!;
    role.addToPolicy(
      new PolicyStatement({ actions: ['s3:GetObject'], resources: [`arn:${Aws.PARTITION}:s3:::${bucket}/${key}`] }),
    );

    NagSuppressions.addResourceSuppressions(role.node.findChild('DefaultPolicy'), [
      {
        id: 'AwsSolutions-IAM5',
        reason:
          'ecr:GetAuthorizationToken and cloudwatch:PutMetricData take no resource ARN; the metrics are held to the /aws/sagemaker/Endpoints namespace by condition.',
        appliesTo: ['Resource::*'],
      },
      {
        id: 'AwsSolutions-IAM5',
        reason:
          "The endpoint's log streams are created by SageMaker under the endpoint's own log group, named at run time.",
        appliesTo: [
          {
            regex: `/^Resource::arn:(<[^>]+>|[^:<]*):logs:(<[^>]+>|[^:<]*):(<[^>]+>|[^:<]*):log-group:\\/aws\\/sagemaker\\/Endpoints\\/${this.endpointName}:\\*$/`,
          },
        ],
      },
    ]);

    const model = new CfnModel(this, 'Model', {
      executionRoleArn: role.roleArn,
      primaryContainer: {
        image: `${container.registryAccount}.dkr.ecr.${Aws.REGION}.${Aws.URL_SUFFIX}/${container.repository}:${container.tag}`,
        modelDataUrl: modelPackage.s3Uri,
        // The toolkit runs code/inference.py of the package (model_fn, input_fn, predict_fn, output_fn).
        environment: {
          SAGEMAKER_PROGRAM: 'inference.py',
          SAGEMAKER_SUBMIT_DIRECTORY: '/opt/ml/model/code',
          MODEL_PACKAGE_SHA256: modelPackage.sha256,
        },
      },
    });
    model.node.addDependency(role);

    const config = new CfnEndpointConfig(this, 'Config', {
      productionVariants: [
        {
          variantName: 'clip',
          modelName: model.attrModelName,
          initialVariantWeight: 1,
          ...('serverless' in choice.capacity
            ? {
                serverlessConfig: {
                  memorySizeInMb: choice.capacity.serverless.memorySizeMb,
                  maxConcurrency: choice.capacity.serverless.maxConcurrency,
                },
              }
            : { initialInstanceCount: choice.capacity.instanceCount, instanceType: choice.capacity.instanceType }),
        },
      ],
    });

    new CfnEndpoint(this, 'Endpoint', {
      endpointName: this.endpointName,
      endpointConfigName: config.attrEndpointConfigName,
    });
  }
}
