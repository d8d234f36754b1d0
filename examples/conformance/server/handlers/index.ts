import type { Handlers } from '../generated/types.js';
import { testSimpleText } from './tools/testSimpleText.js';
import { testImageContent } from './tools/testImageContent.js';
import { testAudioContent } from './tools/testAudioContent.js';
import { testEmbeddedResource } from './tools/testEmbeddedResource.js';
import { testMultipleContentTypes } from './tools/testMultipleContentTypes.js';
import { testToolWithLogging } from './tools/testToolWithLogging.js';
import { testErrorHandling } from './tools/testErrorHandling.js';
import { testToolWithProgress } from './tools/testToolWithProgress.js';
import { testSampling } from './tools/testSampling.js';
import { testElicitation } from './tools/testElicitation.js';
import { testElicitationSep1034Defaults } from './tools/testElicitationSep1034Defaults.js';
import { testElicitationSep1330Enums } from './tools/testElicitationSep1330Enums.js';
import { jsonSchema202012Tool } from './tools/jsonSchema202012Tool.js';
import { testReconnection } from './tools/testReconnection.js';
import { testMissingCapability } from './tools/testMissingCapability.js';
import { testStreamingElicitation } from './tools/testStreamingElicitation.js';
import { testLoggingTool } from './tools/testLoggingTool.js';
import { testTriggerToolChange } from './tools/testTriggerToolChange.js';
import { testTriggerPromptChange } from './tools/testTriggerPromptChange.js';
import { testCustomHeader } from './tools/testCustomHeader.js';
import { testInputRequiredResultElicitation } from './tools/testInputRequiredResultElicitation.js';
import { testInputRequiredResultSampling } from './tools/testInputRequiredResultSampling.js';
import { testInputRequiredResultListRoots } from './tools/testInputRequiredResultListRoots.js';
import { testInputRequiredResultRequestState } from './tools/testInputRequiredResultRequestState.js';
import { testInputRequiredResultMultipleInputs } from './tools/testInputRequiredResultMultipleInputs.js';
import { testInputRequiredResultMultiRound } from './tools/testInputRequiredResultMultiRound.js';
import { testInputRequiredResultTamperedState } from './tools/testInputRequiredResultTamperedState.js';
import { testInputRequiredResultCapabilities } from './tools/testInputRequiredResultCapabilities.js';
import { greet } from './tools/greet.js';
import { slowCompute } from './tools/slowCompute.js';
import { failingJob } from './tools/failingJob.js';
import { protocolErrorJob } from './tools/protocolErrorJob.js';
import { confirmDelete } from './tools/confirmDelete.js';
import { multiInput } from './tools/multiInput.js';
import { testToolWithTask } from './tools/testToolWithTask.js';
import { resources } from './resources.js';
import { resourceTemplates } from './resource-templates.js';
import { prompts } from './prompts.js';

/**
 * Every handler of the server, checked against the generated `Handlers` type. Regenerating adds
 * new tools here; a tool removed from the manifest shows up as a type error until you remove it.
 */
export const handlers: Handlers = {
  tools: {
    test_simple_text: testSimpleText,
    test_image_content: testImageContent,
    test_audio_content: testAudioContent,
    test_embedded_resource: testEmbeddedResource,
    test_multiple_content_types: testMultipleContentTypes,
    test_tool_with_logging: testToolWithLogging,
    test_error_handling: testErrorHandling,
    test_tool_with_progress: testToolWithProgress,
    test_sampling: testSampling,
    test_elicitation: testElicitation,
    test_elicitation_sep1034_defaults: testElicitationSep1034Defaults,
    test_elicitation_sep1330_enums: testElicitationSep1330Enums,
    json_schema_2020_12_tool: jsonSchema202012Tool,
    test_reconnection: testReconnection,
    test_missing_capability: testMissingCapability,
    test_streaming_elicitation: testStreamingElicitation,
    test_logging_tool: testLoggingTool,
    test_trigger_tool_change: testTriggerToolChange,
    test_trigger_prompt_change: testTriggerPromptChange,
    test_custom_header: testCustomHeader,
    test_input_required_result_elicitation: testInputRequiredResultElicitation,
    test_input_required_result_sampling: testInputRequiredResultSampling,
    test_input_required_result_list_roots: testInputRequiredResultListRoots,
    test_input_required_result_request_state: testInputRequiredResultRequestState,
    test_input_required_result_multiple_inputs: testInputRequiredResultMultipleInputs,
    test_input_required_result_multi_round: testInputRequiredResultMultiRound,
    test_input_required_result_tampered_state: testInputRequiredResultTamperedState,
    test_input_required_result_capabilities: testInputRequiredResultCapabilities,
    greet,
    slow_compute: slowCompute,
    failing_job: failingJob,
    protocol_error_job: protocolErrorJob,
    confirm_delete: confirmDelete,
    multi_input: multiInput,
    test_tool_with_task: testToolWithTask,
  },
  resources,
  resourceTemplates,
  prompts,
};
