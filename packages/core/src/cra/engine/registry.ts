import { fail, type Issue, ok, type Result } from "../../result.js";
import { zodIssue } from "../atlas/parse-atlas.js";
import {
  type CheckpointConfig,
  CheckpointConfig as CheckpointConfigSchema,
  CheckpointPriority,
} from "../atlas/schema.js";
import {
  BUILTIN_CHECKPOINT_TYPES,
  CHECKPOINT_PRIORITIES,
  CheckpointEventType,
  CustomCheckpointName,
} from "../types.js";
import { defaultEventsFor, validateCondition } from "./condition-validation.js";
import type {
  CheckpointHandler,
  CheckpointHandlerLike,
  CheckpointPlugin,
  CheckpointTypeDefinition,
  EvalContext,
  TriggerCondition,
} from "./types.js";

/** A plugin checkpoint type after validation. */
export interface RegisteredCheckpointType {
  readonly name: string;
  readonly description: string;
  readonly condition: TriggerCondition;
  readonly handler?: CheckpointHandler;
  readonly defaultPriority: number;
  readonly events: readonly CheckpointEventType[];
  readonly plugin?: string;
}

/** Custom types and plugins known to one engine. */
export interface CheckpointRegistry {
  /** Adds a custom checkpoint type (spec: `registerCheckpointType(name, definition)`). */
  registerCheckpointType(
    name: string,
    definition: CheckpointTypeDefinition,
  ): Result<RegisteredCheckpointType>;
  /** Installs a plugin: its types, extra handlers and config transform, all or nothing. */
  use(plugin: CheckpointPlugin): Result<{ readonly name: string }>;
  /** Same as `use`. */
  registerPlugin(plugin: CheckpointPlugin): Result<{ readonly name: string }>;
  types(): readonly RegisteredCheckpointType[];
  /** Extra handlers plugins added for a type, in installation order. */
  handlersFor(type: string): readonly CheckpointHandler[];
  plugins(): readonly CheckpointPlugin[];
  /** Removes a type registered with `registerCheckpointType`; false when unknown. */
  unregisterCheckpointType(name: string): boolean;
  /** Uninstalls a plugin with its types and handlers; false when it is not installed. */
  remove(pluginName: string): boolean;
  /** Runs every plugin's config transform in order and validates each result. */
  transformConfig(config: CheckpointConfig): Result<CheckpointConfig>;
}

const TYPE_KEYS = new Set([
  "name",
  "description",
  "condition",
  "evaluate",
  "evaluator",
  "defaultHandler",
  "handler",
  "defaultPriority",
  "events",
]);
const PLUGIN_KEYS = new Set([
  "name",
  "checkpointTypes",
  "types",
  "handlers",
  "configureCheckpoints",
  "configTransform",
]);

/** Issues for keys outside `known`: a misspelt key would otherwise be ignored without a word. */
function unknownKeys(
  value: object,
  known: ReadonlySet<string>,
  prefix: string,
  path: (string | number)[],
): Issue[] {
  return Object.keys(value)
    .filter((key) => !known.has(key))
    .map((key) => ({
      code: "unknown_key",
      message: `${prefix}unknown key "${key}" (known: ${[...known].join(", ")})`,
      path: [...path, key],
    }));
}

/** The plugin's config function, under either of its names. */
function configureOf(plugin: CheckpointPlugin): CheckpointPlugin["configureCheckpoints"] {
  return plugin.configureCheckpoints ?? plugin.configTransform;
}

function validateType(
  name: string,
  definition: CheckpointTypeDefinition,
  taken: (name: string) => boolean,
  plugin?: string,
): Result<RegisteredCheckpointType> {
  const path = ["types", name];
  const issues: Issue[] = [];
  const nameCheck = CustomCheckpointName.safeParse(name);
  if (!nameCheck.success) {
    issues.push({
      code: "invalid_type_name",
      message: `checkpoint type "${name}" ${nameCheck.error.issues[0]?.message}`,
      path,
    });
  } else if (taken(name)) {
    issues.push({ code: "duplicate_type", message: `checkpoint type "${name}" is already registered`, path });
  }
  issues.push(...unknownKeys(definition, TYPE_KEYS, `${name}: `, path));
  if (definition.evaluate && definition.evaluator) {
    issues.push({
      code: "invalid_condition",
      message: `${name}: give evaluate or evaluator, not both`,
      path,
    });
  }
  if (definition.defaultHandler && definition.handler) {
    issues.push({
      code: "invalid_handler",
      message: `${name}: give defaultHandler or handler, not both`,
      path,
    });
  }
  const specEvaluate = definition.evaluate;
  const evaluate =
    specEvaluate === undefined
      ? definition.evaluator
      : typeof specEvaluate === "function"
        ? (ctx: EvalContext) => specEvaluate(ctx.input ?? "", ctx)
        : specEvaluate;
  const defaultHandler = definition.defaultHandler ?? definition.handler;
  if (definition.condition && evaluate) {
    issues.push({ code: "invalid_condition", message: `${name}: give either condition or evaluate`, path });
  }
  const condition: TriggerCondition =
    definition.condition ?? (evaluate ? { type: "custom", evaluator: evaluate } : { type: "always" });
  issues.push(...validateCondition(condition, [...path, "condition"]));
  if (
    definition.defaultPriority !== undefined &&
    !CheckpointPriority.safeParse(definition.defaultPriority).success
  ) {
    issues.push({ code: "invalid_priority", message: `${name}: defaultPriority must be an integer`, path });
  }
  if (defaultHandler !== undefined && !isHandlerLike(defaultHandler)) {
    issues.push({ code: "invalid_handler", message: `${name}: defaultHandler is not a handler`, path });
  }
  const events = definition.events ?? defaultEventsFor(condition);
  if (events.length === 0 || events.some((e) => !CheckpointEventType.safeParse(e).success)) {
    issues.push({ code: "invalid_events", message: `${name}: events must be known event types`, path });
  }
  if (issues.length > 0) return fail(...issues);
  return ok(
    Object.freeze({
      name,
      description: definition.description ?? "",
      condition,
      ...(defaultHandler ? { handler: toHandler(defaultHandler) } : {}),
      defaultPriority: definition.defaultPriority ?? CHECKPOINT_PRIORITIES.custom,
      events: Object.freeze([...new Set(events)]),
      ...(plugin === undefined ? {} : { plugin }),
    }),
  );
}

/** Creates an empty registry. */
export function createCheckpointRegistry(): CheckpointRegistry {
  const types = new Map<string, RegisteredCheckpointType>();
  const extraHandlers = new Map<string, CheckpointHandler[]>();
  const plugins: CheckpointPlugin[] = [];
  const pluginHandlers = new Map<string, [string, CheckpointHandler[]][]>();
  const isBuiltin = (name: string) => (BUILTIN_CHECKPOINT_TYPES as readonly string[]).includes(name);

  // Handlers are kept per plugin so that `remove` can take them out again.
  const use = (plugin: CheckpointPlugin): Result<{ readonly name: string }> => {
    const issues: Issue[] = [];
    const name = typeof plugin?.name === "string" ? plugin.name.trim() : "";
    if (name === "" || name.length > 128) {
      return fail({
        code: "invalid_plugin",
        message: "a plugin needs a name (1..128 characters)",
        path: ["name"],
      });
    }
    if (plugins.some((p) => p.name === name)) {
      return fail({
        code: "duplicate_plugin",
        message: `plugin "${name}" is already installed`,
        path: ["name"],
      });
    }
    issues.push(...unknownKeys(plugin, PLUGIN_KEYS, `plugin "${name}": `, []));
    if (plugin.configureCheckpoints !== undefined && plugin.configTransform !== undefined) {
      issues.push({
        code: "invalid_plugin",
        message: "give configureCheckpoints or configTransform, not both",
        path: ["configureCheckpoints"],
      });
    }
    const added: RegisteredCheckpointType[] = [];
    for (const def of [...(plugin.checkpointTypes ?? []), ...(plugin.types ?? [])]) {
      const result = validateType(
        def.name,
        def,
        (n) => types.has(n) || added.some((a) => a.name === n),
        name,
      );
      if (result.ok) added.push(result.value);
      else issues.push(...result.issues);
    }
    const handlerEntries: [string, CheckpointHandler[]][] = [];
    for (const [type, value] of Object.entries(plugin.handlers ?? {})) {
      const list: readonly CheckpointHandlerLike[] = Array.isArray(value)
        ? value
        : [value as CheckpointHandlerLike];
      if (!isBuiltin(type) && !types.has(type) && !added.some((a) => a.name === type)) {
        issues.push({
          code: "unknown_type",
          message: `handlers.${type}: no such checkpoint type`,
          path: ["handlers", type],
        });
        continue;
      }
      if (!list.every(isHandlerLike)) {
        issues.push({
          code: "invalid_handler",
          message: `handlers.${type}: not a handler`,
          path: ["handlers", type],
        });
        continue;
      }
      handlerEntries.push([type, list.map(toHandler)]);
    }
    const configure = configureOf(plugin);
    if (configure !== undefined && typeof configure !== "function") {
      issues.push({
        code: "invalid_plugin",
        message: "configureCheckpoints must be a function",
        path: [plugin.configureCheckpoints !== undefined ? "configureCheckpoints" : "configTransform"],
      });
    }
    if (issues.length > 0) return fail(...issues);
    for (const type of added) types.set(type.name, type);
    pluginHandlers.set(name, handlerEntries);
    for (const [type, handlers] of handlerEntries)
      extraHandlers.set(type, [...(extraHandlers.get(type) ?? []), ...handlers]);
    plugins.push(plugin);
    return ok({ name });
  };

  return {
    registerCheckpointType(name, definition) {
      const result = validateType(name, definition, (n) => types.has(n));
      if (result.ok) types.set(name, result.value);
      return result;
    },
    unregisterCheckpointType: (name) => types.delete(name),
    use,
    registerPlugin: use,
    types: () => [...types.values()],
    handlersFor: (type) => extraHandlers.get(type) ?? [],
    plugins: () => [...plugins],
    remove(pluginName) {
      const index = plugins.findIndex((p) => p.name === pluginName);
      if (index < 0) return false;
      plugins.splice(index, 1);
      for (const [name, type] of types) if (type.plugin === pluginName) types.delete(name);
      for (const [type, handlers] of pluginHandlers.get(pluginName) ?? []) {
        extraHandlers.set(
          type,
          (extraHandlers.get(type) ?? []).filter((h) => !handlers.includes(h)),
        );
      }
      pluginHandlers.delete(pluginName);
      return true;
    },
    transformConfig(config) {
      let current = config;
      for (const plugin of plugins) {
        const configure = configureOf(plugin);
        if (!configure) continue;
        let next: unknown;
        try {
          next = configure(JSON.parse(JSON.stringify(current)) as CheckpointConfig);
        } catch (error) {
          return fail({
            code: "plugin_failed",
            message: `plugin "${plugin.name}" configureCheckpoints threw: ${(error as Error)?.message ?? String(error)}`,
          });
        }
        const parsed = CheckpointConfigSchema.safeParse(next);
        if (!parsed.success) {
          return fail(
            ...parsed.error.issues.map((issue) => {
              const converted = zodIssue(issue, "invalid_config");
              return {
                ...converted,
                message: `plugin "${plugin.name}": checkpoint_config.${converted.message}`,
              };
            }),
          );
        }
        current = parsed.data;
      }
      return ok(current);
    },
  };
}

/** Normalizes the two handler forms into the interface form. */
function toHandler(handler: CheckpointHandlerLike): CheckpointHandler {
  return typeof handler === "function" ? { handle: handler } : handler;
}

/** True when a value is usable as a handler. */
function isHandlerLike(value: unknown): value is CheckpointHandlerLike {
  return (
    typeof value === "function" ||
    (typeof value === "object" &&
      value !== null &&
      typeof (value as { handle?: unknown }).handle === "function")
  );
}
