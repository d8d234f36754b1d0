/** One problem found by a validator (the shape of the runtime's ValidationIssue). */
export interface ValidationIssue {
  instancePath: string;
  schemaPath?: string;
  keyword: string;
  params?: Record<string, unknown>;
  message?: string;
}

/** A type guard that leaves its first problem on `errors` when it fails. */
export interface Validator<T> {
  (data: unknown): data is T;
  errors?: ValidationIssue[] | null;
}

/** Validates `#/$defs/InitializeRequest`. */
export declare const validateInitializeRequest: Validator<unknown>;

/** Validates `#/$defs/PingRequest`. */
export declare const validatePingRequest: Validator<unknown>;

/** Validates `#/$defs/ListToolsRequest`. */
export declare const validateListToolsRequest: Validator<unknown>;

/** Validates `#/$defs/CallToolRequest`. */
export declare const validateCallToolRequest: Validator<unknown>;

/** Validates `#/$defs/ListResourcesRequest`. */
export declare const validateListResourcesRequest: Validator<unknown>;

/** Validates `#/$defs/ListResourceTemplatesRequest`. */
export declare const validateListResourceTemplatesRequest: Validator<unknown>;

/** Validates `#/$defs/ReadResourceRequest`. */
export declare const validateReadResourceRequest: Validator<unknown>;

/** Validates `#/$defs/SubscribeRequest`. */
export declare const validateSubscribeRequest: Validator<unknown>;

/** Validates `#/$defs/UnsubscribeRequest`. */
export declare const validateUnsubscribeRequest: Validator<unknown>;

/** Validates `#/$defs/ListPromptsRequest`. */
export declare const validateListPromptsRequest: Validator<unknown>;

/** Validates `#/$defs/GetPromptRequest`. */
export declare const validateGetPromptRequest: Validator<unknown>;

/** Validates `#/$defs/CompleteRequest`. */
export declare const validateCompleteRequest: Validator<unknown>;

/** Validates `#/$defs/SetLevelRequest`. */
export declare const validateSetLevelRequest: Validator<unknown>;

/** Validates `#/$defs/InitializedNotification`. */
export declare const validateInitializedNotification: Validator<unknown>;

/** Validates `#/$defs/CancelledNotification`. */
export declare const validateCancelledNotification: Validator<unknown>;

/** Validates `#/$defs/ProgressNotification`. */
export declare const validateProgressNotification: Validator<unknown>;

/** Validates `#/$defs/RootsListChangedNotification`. */
export declare const validateRootsListChangedNotification: Validator<unknown>;

/** Validates `#/$defs/CreateMessageResult`. */
export declare const validateCreateMessageResult: Validator<unknown>;

/** Validates `#/$defs/ElicitResult`. */
export declare const validateElicitResult: Validator<unknown>;

/** Validates `#/$defs/ListRootsResult`. */
export declare const validateListRootsResult: Validator<unknown>;

export declare const requestValidators: {
  readonly "initialize": Validator<unknown>;
  readonly "ping": Validator<unknown>;
  readonly "tools/list": Validator<unknown>;
  readonly "tools/call": Validator<unknown>;
  readonly "resources/list": Validator<unknown>;
  readonly "resources/templates/list": Validator<unknown>;
  readonly "resources/read": Validator<unknown>;
  readonly "resources/subscribe": Validator<unknown>;
  readonly "resources/unsubscribe": Validator<unknown>;
  readonly "prompts/list": Validator<unknown>;
  readonly "prompts/get": Validator<unknown>;
  readonly "completion/complete": Validator<unknown>;
  readonly "logging/setLevel": Validator<unknown>;
  readonly "notifications/initialized": Validator<unknown>;
  readonly "notifications/cancelled": Validator<unknown>;
  readonly "notifications/progress": Validator<unknown>;
  readonly "notifications/roots/list_changed": Validator<unknown>;
};

export declare const resultValidators: {
  readonly "sampling/createMessage": Validator<unknown>;
  readonly "elicitation/create": Validator<unknown>;
  readonly "roots/list": Validator<unknown>;
};
