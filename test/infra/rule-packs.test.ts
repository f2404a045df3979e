/**
 * The cdk-nag rule packs AwsSolutions and Serverless over the stacks of every environment, as `cdk synth -c env=NAME`
 * builds them: with an account and region (as for a deploy, where ARNs show them literally), and with a CLIP
 * endpoint created (`-c logoEmbedder=clip`) without them (environment-agnostic, ARNs made of pseudo parameters). No
 * error or warning may be left unsuppressed: a finding is fixed, or acknowledged with its reason where its resource
 * is built (infra/DEPLOY.md, "Rule packs"). Bundling is skipped: no rule reads a function's code.
 */
import { App, Aspects, Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { ENVIRONMENT_NAMES, type EnvironmentName, type EnvironmentOverrides } from '../../infra/config/environments';
import { CLIP_CREATED, synthEnvironment } from './synth-environment';

const RULE_PACKS = ['AwsSolutions', 'Serverless'] as const;

/**
 * cdk.json sends annotations to the policy validation report, where an error stops the synthesis; here they stay
 * annotations, so that every finding can be listed.
 */
const FINDINGS_AS_ANNOTATIONS = { '@aws-cdk/core:annotationsInValidationReport': false };

/** Every unsuppressed finding of the rule packs on these stacks, one line each: level, construct path, message. */
function findingsOf(stacks: Stack[]): string[] {
  const lines: string[] = [];
  for (const stack of stacks) {
    const annotations = Annotations.fromStack(stack);
    for (const pack of RULE_PACKS) {
      const pattern = Match.stringLikeRegexp(`^${pack}-`);
      const found = [
        ...annotations.findError('*', pattern).map((m) => ['error', m] as const),
        ...annotations.findWarning('*', pattern).map((m) => ['warning', m] as const),
      ];
      for (const [level, message] of found) lines.push(`${level} at ${message.id}: ${String(message.entry.data)}`);
    }
  }
  return lines.sort();
}

interface Case {
  label: string;
  name: EnvironmentName;
  overrides: EnvironmentOverrides;
}

const DEPLOYED = { account: '123456789012', region: 'eu-west-1' };

const CASES: Case[] = ENVIRONMENT_NAMES.flatMap((name) => [
  { label: `${name} in ${DEPLOYED.region}`, name, overrides: DEPLOYED },
  { label: `${name} with a CLIP endpoint created, environment-agnostic`, name, overrides: CLIP_CREATED },
]);

const findings: Record<string, string[]> = {};

beforeAll(() => {
  for (const { label, name, overrides } of CASES) {
    const env = synthEnvironment(name, {
      bundle: false,
      overrides,
      aspects: [new AwsSolutionsChecks(), new ServerlessChecks()],
      context: FINDINGS_AS_ANNOTATIONS,
    });
    findings[label] = findingsOf([env.stacks.stateful, env.stacks.stateless]);
  }
});

describe('rule packs AwsSolutions and Serverless', () => {
  it.each(CASES.map((c) => c.label))('%s: no unsuppressed error or warning', (label) => {
    expect(findings[label]).toEqual([]);
  });

  it('would report a finding: a bucket without server access logs', () => {
    const app = new App({ context: FINDINGS_AS_ANNOTATIONS });
    const stack = new Stack(app, 'RulePackCanary');
    new Bucket(stack, 'Unlogged', { enforceSSL: true });
    Aspects.of(app).add(new AwsSolutionsChecks());
    expect(findingsOf([stack])).toEqual([
      expect.stringMatching(/^error at \/RulePackCanary\/Unlogged\/Resource: AwsSolutions-S1: /),
    ]);
  });
});
