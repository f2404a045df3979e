/**
 * Credentials from Secrets Manager, read once per warm instance and kept five minutes, so that a rotated key is
 * picked up without a redeploy and a run of many calls reads the secret once.
 */
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SecretSource } from '../../ports';

const KEEP_MS = 5 * 60_000;

export class SecretsManagerSource implements SecretSource {
  private readonly cache = new Map<string, { value: string; until: number }>();

  constructor(
    private readonly client: SecretsManagerClient,
    private readonly now: () => number = Date.now,
  ) {}

  async read(name: string): Promise<string> {
    const cached = this.cache.get(name);
    if (cached && cached.until > this.now()) return cached.value;
    const out = await this.client.send(new GetSecretValueCommand({ SecretId: name }));
    const value = out.SecretString?.trim();
    if (!value) throw new Error(`secret ${name} has no value: put the key in it (infra/DEPLOY.md, Data jobs)`);
    this.cache.set(name, { value, until: this.now() + KEEP_MS });
    return value;
  }
}
