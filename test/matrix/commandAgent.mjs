// The command lane's agent in the scenario matrix: a minimal agent CLI. It sends the task (stdin), the feedback
// (SWITCHYARD_FEEDBACK) and its working directory to a model (OpenAI chat completions at MATRIX_MODEL_URL, streamed),
// runs the write_file calls the model answers (absolute paths, as the model names them), sends the results back,
// and exits 0 when the model answers without a tool call.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const spec = Buffer.concat(chunks).toString('utf8');
const feedback = process.env.SWITCHYARD_FEEDBACK?.trim();
const messages = [
  { role: 'system', content: `You are a coding agent.\nPrimary working directory: ${process.cwd()}\n` },
  {
    role: 'user',
    content: feedback ? `${spec}\n\nFeedback on the previous attempt, to address now:\n\n${feedback}` : spec,
  },
];
const tools = [
  {
    type: 'function',
    function: {
      name: 'write_file',
      description: 'Write a whole file at an absolute path.',
      parameters: {
        type: 'object',
        properties: { file_path: { type: 'string' }, content: { type: 'string' } },
        required: ['file_path', 'content'],
      },
    },
  },
];

for (let turn = 0; turn < 20; turn++) {
  const response = await fetch(`${process.env.MATRIX_MODEL_URL}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer none' },
    body: JSON.stringify({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      messages,
      tools,
    }),
  });
  if (!response.ok) {
    console.error(`model call failed: ${response.status} ${await response.text()}`);
    process.exit(1);
  }
  let text = '';
  const calls = [];
  let buffer = '';
  for await (const piece of response.body) {
    buffer += Buffer.from(piece).toString('utf8');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split('\n')
        .find((l) => l.startsWith('data: '))
        ?.slice(6);
      if (!data || data === '[DONE]') continue;
      const delta = JSON.parse(data).choices?.[0]?.delta ?? {};
      if (delta.content) text += delta.content;
      for (const call of delta.tool_calls ?? []) {
        calls[call.index] ??= { id: call.id, name: '', args: '' };
        if (call.function?.name) calls[call.index].name = call.function.name;
        if (call.function?.arguments) calls[call.index].args += call.function.arguments;
      }
    }
  }
  if (text) console.log(text);
  if (!calls.length) process.exit(0);
  messages.push({
    role: 'assistant',
    content: text || null,
    tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })),
  });
  for (const call of calls) {
    const input = JSON.parse(call.args);
    mkdirSync(dirname(input.file_path), { recursive: true });
    writeFileSync(input.file_path, input.content);
    console.log(`wrote ${input.file_path}`);
    messages.push({ role: 'tool', tool_call_id: call.id, content: `wrote ${input.file_path}` });
  }
}
console.error('too many turns');
process.exit(1);
