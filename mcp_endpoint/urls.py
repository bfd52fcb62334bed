from django.urls import path

from mcp_endpoint import views

urlpatterns = [path("_emdash/api/mcp", views.mcp, name="mcp")]
