from django.apps import AppConfig


class McpEndpointConfig(AppConfig):
    name = "mcp_endpoint"

    def ready(self) -> None:
        # Build and check every tool record at start-up, not on the first request.
        from mcp_endpoint import registry

        registry.definitions()

        from emdash.background import register_sweep
        from mcp_endpoint import task_store, tasks_exec

        task_store.use_job(tasks_exec.run_mcp_task)
        register_sweep("mcp tasks", task_store.sweep, report="swept {} expired or abandoned MCP task(s)")
