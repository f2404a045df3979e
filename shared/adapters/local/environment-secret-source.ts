import type { SecretSource } from '../../ports';

/** Credentials from environment variables (an operator's `npm run data:update`): the secret's name maps to one. */
export class EnvironmentSecretSource implements SecretSource {
  constructor(
    private readonly variables: Readonly<Record<string, string>>,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async read(name: string): Promise<string> {
    const variable = this.variables[name];
    const value = variable ? this.env[variable]?.trim() : undefined;
    if (!value) throw new Error(`no credential for ${name}: set ${variable ?? 'its environment variable'}`);
    return value;
  }
}
