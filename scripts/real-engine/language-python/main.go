// Command pulumi-language-python runs a Pulumi Python program for the Pulumi CLI.
//
// The upstream language host (module github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3)
// is not served by the Go module proxy this project builds from, so the real-engine toolchain builds
// this one instead. It does what the upstream host does to run a program, using the same pieces: it
// resolves the Python toolchain with the SDK's own python/toolchain package, runs the SDK's
// pulumi-language-python-exec with the arguments and environment upstream passes (config as
// PULUMI_CONFIG, secret keys as PULUMI_CONFIG_SECRET_KEYS), and maps its exit code to the same
// RunResponse (32 means the program already reported its error). Everything else the engine drives
// (deployment, state, providers, the Python SDK, the dynamic-provider host) is the upstream code.
// Plugin discovery is left to the engine: it finds pulumi-resource-kubernetes and
// pulumi-resource-pulumi-python on PATH when the program registers their resources.
//
// RunPlugin runs a plugin written in Python (a directory with a PulumiPlugin.yaml, such as this
// project's component provider) as upstream does: `python <plugin directory> <args>` with the
// plugin's own toolchain options (its virtualenv), streaming stdout and stderr to the engine and
// reporting the exit code.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// Set by the toolchain script to the SDK version whose exec script this host runs.
var version = "0.0.0"

// exitedAfterUserMessage is pulumi-language-python-exec's exit code for "error already shown".
const exitedAfterUserMessage = 32

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engineAddress string
	tracing       string
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

func (h *host) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *host) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *host) InstallDependencies(
	_ *pulumirpc.InstallDependenciesRequest, _ pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	// Dependencies are the caller's virtualenv: nothing to install.
	return nil
}

func pythonOptions(info *pulumirpc.ProgramInfo) (toolchain.PythonOptions, error) {
	opts := toolchain.PythonOptions{
		Root:       info.GetRootDirectory(),
		ProgramDir: info.GetProgramDirectory(),
		Toolchain:  toolchain.Auto,
	}
	raw := info.GetOptions().AsMap()
	if v, ok := raw["virtualenv"].(string); ok {
		opts.Virtualenv = v
	}
	switch raw["toolchain"] {
	case nil:
	case "pip":
		opts.Toolchain = toolchain.Pip
	case "poetry":
		opts.Toolchain = toolchain.Poetry
	case "uv":
		opts.Toolchain = toolchain.Uv
	default:
		return opts, fmt.Errorf("unsupported toolchain option %v", raw["toolchain"])
	}
	return opts, nil
}

func (h *host) arguments(req *pulumirpc.RunRequest) []string {
	args := []string{}
	add := func(name, value string) {
		if value != "" {
			args = append(args, name, value)
		}
	}
	add("--monitor", req.GetMonitorAddress())
	add("--engine", h.engineAddress)
	add("--project", req.GetProject())
	add("--stack", req.GetStack())
	add("--pwd", req.GetPwd())
	if req.GetDryRun() {
		args = append(args, "--dry_run", "true")
	}
	args = append(args, "--parallel", strconv.Itoa(int(req.GetParallel())))
	add("--tracing", h.tracing)
	add("--organization", req.GetOrganization())
	add("--root_directory", req.GetInfo().GetRootDirectory())
	program := req.GetProgram()
	if program == "" {
		program = "."
	}
	args = append(args, program)
	return append(args, req.GetArgs()...)
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	execScript, err := exec.LookPath("pulumi-language-python-exec")
	if err != nil {
		return nil, fmt.Errorf("pulumi-language-python-exec is not on PATH: %w", err)
	}
	opts, err := pythonOptions(req.GetInfo())
	if err != nil {
		return nil, err
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return nil, err
	}
	cmd, err := tc.Command(ctx, append([]string{execScript}, h.arguments(req)...)...)
	if err != nil {
		return nil, err
	}
	configMap := req.GetConfig()
	if configMap == nil {
		// The exec script reads PULUMI_CONFIG as a JSON object; a stack without config is an empty one.
		configMap = map[string]string{}
	}
	config, err := json.Marshal(configMap)
	if err != nil {
		return nil, err
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env,
		"PULUMI_CONFIG="+string(config),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secretJSON),
	)
	if opts.Virtualenv != "" {
		cmd.Env = append(cmd.Env, "PULUMI_RUNTIME_VIRTUALENV="+opts.Virtualenv)
	}
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if exitErr.ExitCode() == exitedAfterUserMessage {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{
				Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exitErr.ExitCode()),
			}, nil
		}
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

func (h *host) RunPlugin(req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer) error {
	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer closer.Close()
	opts, err := pythonOptions(req.GetInfo())
	if err != nil {
		return err
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return err
	}
	args := append([]string{req.GetInfo().GetProgramDirectory()}, req.GetArgs()...)
	cmd, err := tc.Command(server.Context(), args...)
	if err != nil {
		return err
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, req.GetEnv()...)
	cmd.Dir = req.GetPwd()
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) {
			return fmt.Errorf("running plugin: %w", err)
		}
		if err := server.Send(&pulumirpc.RunPluginResponse{
			Output: &pulumirpc.RunPluginResponse_Exitcode{Exitcode: int32(exitErr.ExitCode())},
		}); err != nil {
			return err
		}
	}
	return closer.Close()
}

func main() {
	tracing := flag.String("tracing", "", "Emit tracing to a Zipkin-compatible tracing endpoint")
	// Accepted for compatibility with the upstream host's command line; options come from Pulumi.yaml.
	flag.String("root", "", "Project root path")
	flag.String("virtualenv", "", "Virtual environment path")
	flag.String("typechecker", "", "Type checker")
	flag.String("toolchain", "", "Python toolchain")
	flag.Parse()
	engineAddress := ""
	if args := flag.Args(); len(args) > 0 {
		engineAddress = args[0]
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, &host{engineAddress: engineAddress, tracing: *tracing})
			return nil
		},
		Options: rpcutil.OpenTracingServerInterceptorOptions(nil),
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "fatal: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "fatal: %v\n", err)
		os.Exit(1)
	}
}
