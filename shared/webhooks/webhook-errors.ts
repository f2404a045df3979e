/** The webhook routes' own refusal: a call that needs a webhook on an account that has none. */
import { ServiceError } from '../errors';

export class WebhookNotSetError extends ServiceError {
  readonly status = 404;
  readonly code = 'not_found';
  constructor() {
    super({
      en: 'This account has no webhook. Set one with PUT /v1/webhook first.',
      zh: '该账户尚未设置 webhook。请先调用 PUT /v1/webhook 设置。',
    });
  }
}
