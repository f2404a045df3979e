/**
 * The CLIP image-embedding endpoint. Either this environment creates it (a SageMaker model from the Hugging Face
 * inference container, an endpoint config with the instance type from config, and the endpoint), or it imports an
 * existing endpoint by name. Either way it exposes the endpoint name and one grant: sagemaker:InvokeEndpoint on
 * exactly that endpoint.
 */
import { ArnFormat, Aws, Stack } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { CfnEndpoint, CfnEndpointConfig, CfnModel } from 'aws-cdk-lib/aws-sagemaker';
import { Construct } from 'constructs';
import type { ClipEndpointChoice } from '../config/environments';

export interface ClipEndpointProps {
  choice: ClipEndpointChoice;
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
      this.createEndpoint(choice);
    }
    // SageMaker ARNs carry the endpoint name in lower case.
    this.endpointArn = Stack.of(this).formatArn({ service: 'sagemaker', resource: 'endpoint', resourceName: this.endpointName.toLowerCase() });
  }

  grantInvoke(grantee: IGrantable): void {
    grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions: ['sagemaker:InvokeEndpoint'], resources: [this.endpointArn] }));
  }

  private createEndpoint(choice: Extract<ClipEndpointChoice, { mode: 'create' }>): void {
    const { container } = choice;
    const repositoryArn = Stack.of(this).formatArn({ service: 'ecr', account: container.registryAccount, resource: 'repository', resourceName: container.repository });
    const role = new Role(this, 'ExecutionRole', { assumedBy: new ServicePrincipal('sagemaker.amazonaws.com') });
    role.addToPolicy(new PolicyStatement({ actions: ['ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer', 'ecr:BatchCheckLayerAvailability'], resources: [repositoryArn] }));
    // GetAuthorizationToken has no resource-level permissions.
    role.addToPolicy(new PolicyStatement({ actions: ['ecr:GetAuthorizationToken'], resources: ['*'] }));
    role.addToPolicy(
      new PolicyStatement({
        actions: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [Stack.of(this).formatArn({ service: 'logs', resource: 'log-group', resourceName: `/aws/sagemaker/Endpoints/${this.endpointName}:*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME })],
      }),
    );
    role.addToPolicy(
      new PolicyStatement({ actions: ['cloudwatch:PutMetricData'], resources: ['*'], conditions: { StringEquals: { 'cloudwatch:namespace': '/aws/sagemaker/Endpoints' } } }),
    );

    const model = new CfnModel(this, 'Model', {
      executionRoleArn: role.roleArn,
      primaryContainer: {
        image: `${container.registryAccount}.dkr.ecr.${Aws.REGION}.${Aws.URL_SUFFIX}/${container.repository}:${container.tag}`,
        environment: { HF_MODEL_ID: container.modelId, HF_TASK: container.task },
      },
    });
    model.node.addDependency(role);

    const config = new CfnEndpointConfig(this, 'Config', {
      productionVariants: [
        {
          variantName: 'clip',
          modelName: model.attrModelName,
          initialInstanceCount: choice.instanceCount,
          instanceType: choice.instanceType,
          initialVariantWeight: 1,
        },
      ],
    });

    new CfnEndpoint(this, 'Endpoint', { endpointName: this.endpointName, endpointConfigName: config.attrEndpointConfigName });
  }
}
