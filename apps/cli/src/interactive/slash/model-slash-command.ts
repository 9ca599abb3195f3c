import { listModels } from "@arbor/providers";
import { bindModel } from "../../agent/prepare-agent";
import { compactionFitWarning } from "../../agent/startup-warnings";
import { formatTokens } from "../../format/format-number";
import type { SlashCommandHandler } from "../interactive-context";

/** `/model`: lists the models (declared ones first); `/model ID` switches to one (its key must be set). */
export const modelSlashCommand: SlashCommandHandler = async (context, args) => {
  const current = context.session.model;
  if (!args) {
    const rows = [
      ...context.environment.customModels.map((model) => ({ ...model, declared: true })),
      ...listModels().map((model) => ({ ...model, declared: false })),
    ];
    for (const model of rows) {
      const mark = model.id === current.id && model.provider === current.provider ? "●" : " ";
      context.print(
        `${mark} ${`${model.provider}/${model.id}`.padEnd(40)} ${formatTokens(model.contextWindow).padStart(6)} window${model.declared ? context.style.dim(" (models file)") : ""}`,
      );
    }
    context.print(context.style.dim("Switch with /model ID."));
    return;
  }
  const binding = await bindModel(context.environment, { model: args });
  await context.session.setModel(binding.resolved.model, { provider: binding.provider });
  context.setBinding(binding);
  context.print(`Now using ${binding.resolved.model.provider}/${binding.resolved.model.id}.`);
  const fit = compactionFitWarning(context.session);
  if (fit !== undefined) context.print(context.style.yellow(fit.trimEnd()));
};
