/**
 * Synthesises one environment the way `cdk synth -c env=NAME` does (same app code, same feature flags from
 * cdk.json), and helpers that follow the templates' references back to the resources they name.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App, Aspects, type IAspect } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { environmentConfig, type EnvironmentName, type EnvironmentOverrides } from '../../infra/config/environments';
import { addEnvironment, type EnvironmentStacks } from '../../infra/stacks/environment';
import { TABLE_ID_TAG } from '../../infra/constructs/data-tables';

const CDK_JSON = JSON.parse(readFileSync(path.join(__dirname, '../../cdk.json'), 'utf8')) as {
  app: string;
  context: Record<string, unknown>;
};

export interface SynthesisedEnvironment {
  stacks: EnvironmentStacks;
  stateful: Template;
  stateless: Template;
  statefulJson: CfnTemplate;
  statelessJson: CfnTemplate;
}

export interface CfnResource {
  Type: string;
  // biome-ignore lint/suspicious/noExplicitAny: free-form CloudFormation properties, read by path in jest assertions that check their shape
  Properties?: Record<string, any>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  DependsOn?: string[];
}
export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown }>;
}

/** A package URI of the pinned shape, for synthesis (nothing is read from it). */
export const TEST_MODEL_PACKAGE_URI = `s3://tmk-model-packages-test/image-embedding/${'ab'.repeat(32)}/model.tar.gz`;

/** What `-c logoEmbedder=clip -c modelPackageUri=...` asks for: CLIP as the primary, on an endpoint created here. */
export const CLIP_CREATED: EnvironmentOverrides = { logoEmbedder: 'clip', modelPackageUri: TEST_MODEL_PACKAGE_URI };

/**
 * @param bundle false skips asset bundling (esbuild and the native-modules layer), for suites that look only at
 * resources whose content does not depend on the bundles.
 * @param overrides what the command line would pass (`-c logoEmbedder=clip ...`); none by default.
 * @param aspects applied to the whole app before it synthesises (the rule packs).
 * @param context entries over cdk.json's.
 */
export function synthEnvironment(
  name: EnvironmentName,
  options: {
    bundle: boolean;
    overrides?: EnvironmentOverrides;
    aspects?: IAspect[];
    context?: Record<string, unknown>;
  },
): SynthesisedEnvironment {
  const app = new App({
    context: {
      ...CDK_JSON.context,
      ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
      ...options.context,
    },
  });
  const stacks = addEnvironment(app, environmentConfig(name, options.overrides ?? {}));
  for (const aspect of options.aspects ?? []) Aspects.of(app).add(aspect);
  const stateful = Template.fromStack(stacks.stateful);
  const stateless = Template.fromStack(stacks.stateless);
  return {
    stacks,
    stateful,
    stateless,
    statefulJson: stateful.toJSON() as CfnTemplate,
    statelessJson: stateless.toJSON() as CfnTemplate,
  };
}

/**
 * The folder CDK staged an asset in (what is zipped and uploaded): the asset of a function (by construct id) or of
 * a layer (by logical id prefix), found through the S3 key the template gives its code.
 */
export function assetDirOf(env: SynthesisedEnvironment, resource: { function: string } | { layer: string }): string {
  const template = env.statelessJson;
  const key =
    'function' in resource
      ? (template.Resources[functionLogicalId(template, resource.function)]!.Properties!.Code.S3Key as string)
      : (onlyResource(template, 'AWS::Lambda::LayerVersion', resource.layer)[1].Properties!.Content.S3Key as string);
  const hash = /^([0-9a-f]{64})\.zip$/.exec(key)?.[1];
  if (!hash) throw new Error(`not an asset key: ${key}`);
  return path.join((env.stacks.stateless.node.root as App).outdir, `asset.${hash}`);
}

export function resourcesOfType(template: CfnTemplate, type: string): [string, CfnResource][] {
  return Object.entries(template.Resources).filter(([, r]) => r.Type === type);
}

/** The one resource of a type whose logical id starts with the given construct path (e.g. `BatchScreenFunction`). */
export function onlyResource(template: CfnTemplate, type: string, logicalIdPrefix: string): [string, CfnResource] {
  const found = resourcesOfType(template, type).filter(([id]) => id.startsWith(logicalIdPrefix));
  if (found.length !== 1)
    throw new Error(
      `expected one ${type} starting with ${logicalIdPrefix}, found ${found.map(([id]) => id).join(', ') || 'none'}`,
    );
  return found[0]!;
}

/** The logical id of the application function built by the ApiFunction construct with this id. */
export function functionLogicalId(template: CfnTemplate, constructId: string): string {
  return onlyResource(template, 'AWS::Lambda::Function', `${constructId}Function`)[0];
}

export function tableIdOf(resource: CfnResource | undefined): string | undefined {
  const tags = (resource?.Properties?.Tags ?? []) as { Key: string; Value: string }[];
  return tags.find((t) => t.Key === TABLE_ID_TAG)?.Value;
}

/**
 * Describes a CloudFormation value in words the tests can compare: a reference to a table becomes
 * `table:<id>` (or `table-name:<id>` for its Ref), a vector index `vector-index:<market>`, a bucket
 * `bucket:<construct>`, a log group `log-group:<construct path>` (`log-group:BatchScreenLogs`), pseudo parameters
 * `${AWS::...}`; joins are concatenated.
 */
export function describeValue(
  env: SynthesisedEnvironment,
  value: unknown,
  template: CfnTemplate = env.statelessJson,
): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => describeValue(env, v, template)).join(',');
  if (!value || typeof value !== 'object') return String(value);
  const v = value as Record<string, unknown>;
  if ('Fn::GetStackOutput' in v) {
    const { OutputName: outputName } = v['Fn::GetStackOutput'] as { OutputName: string };
    const output = env.statefulJson.Outputs?.[outputName];
    if (!output) throw new Error(`no stateful output ${outputName}`);
    return describeValue(env, output.Value, env.statefulJson);
  }
  if ('Fn::Join' in v) {
    const [separator, parts] = v['Fn::Join'] as [string, unknown[]];
    return parts.map((p) => describeValue(env, p, template)).join(separator);
  }
  if ('Ref' in v) {
    const ref = v.Ref as string;
    if (ref.startsWith('AWS::')) return `\${${ref}}`;
    return describeLogicalId(template, ref, 'name');
  }
  if ('Fn::GetAtt' in v) {
    const [logicalId, attribute] = v['Fn::GetAtt'] as [string, string];
    return describeLogicalId(template, logicalId, attribute);
  }
  if ('Fn::ImportValue' in v) return `import:${JSON.stringify(v['Fn::ImportValue'])}`;
  return JSON.stringify(v);
}

function describeLogicalId(template: CfnTemplate, logicalId: string, attribute: string): string {
  const resource = template.Resources[logicalId];
  if (!resource) throw new Error(`no resource ${logicalId}`);
  switch (resource.Type) {
    case 'AWS::DynamoDB::Table':
      return `${attribute === 'Arn' ? 'table' : 'table-name'}:${tableIdOf(resource)}`;
    case 'AWS::S3Vectors::Index':
      return `vector-index:${logicalId.match(/Index(US|CN)/)?.[1]}`;
    case 'AWS::Logs::LogGroup':
      return `log-group:${logicalId.replace(/[0-9A-F]{8}$/, '')}`;
    case 'AWS::S3::Bucket':
      return `bucket:${logicalId.match(/^Buckets([A-Z][a-z]+)/)?.[1]}${attribute === 'Arn' ? '' : `.${attribute}`}`;
    default:
      return `${resource.Type}:${logicalId}.${attribute}`;
  }
}

export interface PolicyStatementShape {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

/**
 * Every permission the inline policies give a function's role, as resource description -> sorted actions.
 * Fails on a Deny or a condition, which these policies never have.
 */
export function grantsOf(env: SynthesisedEnvironment, constructId: string): Record<string, string[]> {
  const template = env.statelessJson;
  const fn = template.Resources[functionLogicalId(template, constructId)]!;
  const roleId = (fn.Properties!.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const grants: Record<string, Set<string>> = {};
  for (const [, policy] of resourcesOfType(template, 'AWS::IAM::Policy')) {
    const roles = (policy.Properties!.Roles as { Ref: string }[]).map((r) => r.Ref);
    if (!roles.includes(roleId)) continue;
    for (const statement of policy.Properties!.PolicyDocument.Statement as PolicyStatementShape[]) {
      if (statement.Effect !== 'Allow' || statement.Condition)
        throw new Error(`unexpected statement ${JSON.stringify(statement)}`);
      const actions = Array.isArray(statement.Action) ? statement.Action : [statement.Action];
      const resources = Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];
      for (const resource of resources) {
        const key = describeValue(env, resource);
        grants[key] ??= new Set();
        for (const action of actions) grants[key].add(action);
      }
    }
  }
  return Object.fromEntries(Object.entries(grants).map(([k, v]) => [k, [...v].sort()]));
}

/** The CloudWatch dashboard body with every token replaced by a readable placeholder, parsed. */
export function dashboardBody(env: SynthesisedEnvironment): { widgets: DashboardWidget[] } {
  const [, dashboard] = onlyResource(env.statelessJson, 'AWS::CloudWatch::Dashboard', 'BillingDashboard');
  return JSON.parse(describeValue(env, dashboard.Properties!.DashboardBody)) as { widgets: DashboardWidget[] };
}

export interface DashboardWidget {
  type: string;
  properties: {
    title?: string;
    markdown?: string;
    metrics?: unknown[][];
    stacked?: boolean;
    view?: string;
    yAxis?: unknown;
    setPeriodToTimeRange?: boolean;
  };
}
