import { SendingCalls } from '@herald/internal-contracts';
import { CallHandlers } from '@herald/messaging';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { TemplatesService } from '../templates/templates.service.js';
import { InternalEmailIntake } from './internal-email-intake.js';

/** What sending answers other services at once (SendingCalls): campaigns' and workflows' emails, and a template. */
@Injectable()
export class SendingCallHandlers implements OnModuleInit {
  constructor(
    private readonly calls: CallHandlers,
    private readonly intake: InternalEmailIntake,
    private readonly templates: TemplatesService,
  ) {}

  onModuleInit(): void {
    this.calls.serve(SendingCalls, {
      intake: (projectId, request, { requestId }) => this.intake.execute(projectId, request, requestId),
      template: async (projectId, request) => {
        const t = await this.templates.find(projectId, request.id);
        return { id: t.id, name: t.name, type: t.type, subject: t.subject };
      },
    });
  }
}
